//go:build amd64 && !purego

#include "textflag.h"

// func specialBlocks(b []byte) int
//
// A byte is special if it equals '"' or '\\' (PCMPEQB against a
// broadcast) or is at most 0x1f (min(byte, 0x1f) == byte, PMINUB then
// PCMPEQB). 32 bytes a round, then one round of 16; the 0-15 bytes
// left are the caller's.
TEXT ·specialBlocks(SB), NOSPLIT, $0-32
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), BX
	MOVQ SI, DI

	MOVQ $0x2222222222222222, AX
	MOVQ AX, X1
	PUNPCKLQDQ X1, X1
	MOVQ $0x5c5c5c5c5c5c5c5c, AX
	MOVQ AX, X2
	PUNPCKLQDQ X2, X2
	MOVQ $0x1f1f1f1f1f1f1f1f, AX
	MOVQ AX, X3
	PUNPCKLQDQ X3, X3

loop32:
	CMPQ BX, $32
	JB   tail16
	MOVOU (SI), X0
	MOVOU 16(SI), X8

	MOVO    X0, X4
	PCMPEQB X1, X4
	MOVO    X0, X5
	PCMPEQB X2, X5
	POR     X5, X4
	MOVO    X0, X6
	PMINUB  X3, X6
	PCMPEQB X0, X6
	POR     X6, X4

	MOVO    X8, X9
	PCMPEQB X1, X9
	MOVO    X8, X10
	PCMPEQB X2, X10
	POR     X10, X9
	MOVO    X8, X11
	PMINUB  X3, X11
	PCMPEQB X8, X11
	POR     X11, X9

	MOVO     X4, X12
	POR      X9, X12
	PMOVMSKB X12, AX
	TESTL    AX, AX
	JNZ      found32
	ADDQ     $32, SI
	SUBQ     $32, BX
	JMP      loop32

found32:
	PMOVMSKB X4, AX
	PMOVMSKB X9, CX
	SHLL     $16, CX
	ORL      CX, AX
	BSFL     AX, AX
	SUBQ     DI, SI
	ADDQ     SI, AX
	MOVQ     AX, ret+24(FP)
	RET

tail16:
	CMPQ BX, $16
	JB   none
	MOVOU   (SI), X0
	MOVO    X0, X4
	PCMPEQB X1, X4
	MOVO    X0, X5
	PCMPEQB X2, X5
	POR     X5, X4
	MOVO    X0, X6
	PMINUB  X3, X6
	PCMPEQB X0, X6
	POR     X6, X4
	PMOVMSKB X4, AX
	TESTL    AX, AX
	JNZ      found16
	ADDQ     $16, SI

none:
	SUBQ DI, SI
	MOVQ SI, ret+24(FP)
	RET

found16:
	BSFL AX, AX
	SUBQ DI, SI
	ADDQ SI, AX
	MOVQ AX, ret+24(FP)
	RET
