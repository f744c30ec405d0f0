//go:build amd64 && !purego

#include "textflag.h"

// SPECIAL sets each byte of m to 0xff where x has a special byte and to 0
// elsewhere (see below); x and t are clobbered.
#define SPECIAL(x, t, m) \
	MOVO    x, t;  \
	PXOR    X1, t; \
	MOVO    t, m;  \
	PMINUB  X3, m; \
	PCMPEQB t, m;  \
	PCMPEQB X2, x; \
	POR     x, m

// func specialBlocks(b []byte) int
//
// A byte x is special if x == '\\' (PCMPEQB against a broadcast) or
// x <= 0x1f or x == '"'. The last two are one test: y = x ^ 0x02 maps
// 0x00-0x1f onto itself and '"' (0x22) to 0x20, and every other byte above
// 0x20, so they are the bytes with min(y, 0x20) == y (PMINUB, PCMPEQB).
// 32 bytes a round, then one round of 16; the 0-15 bytes left are the
// caller's.
TEXT ·specialBlocks(SB), NOSPLIT, $0-32
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), BX
	MOVQ SI, DI

	MOVQ $0x0202020202020202, AX
	MOVQ AX, X1
	PUNPCKLQDQ X1, X1
	MOVQ $0x5c5c5c5c5c5c5c5c, AX
	MOVQ AX, X2
	PUNPCKLQDQ X2, X2
	MOVQ $0x2020202020202020, AX
	MOVQ AX, X3
	PUNPCKLQDQ X3, X3

loop32:
	CMPQ BX, $32
	JB   tail16
	MOVOU (SI), X0
	MOVOU 16(SI), X8

	SPECIAL(X0, X4, X5)
	SPECIAL(X8, X9, X10)

	MOVO     X5, X12
	POR      X10, X12
	PMOVMSKB X12, AX
	TESTL    AX, AX
	JNZ      found32
	ADDQ     $32, SI
	SUBQ     $32, BX
	JMP      loop32

found32:
	PMOVMSKB X5, AX
	PMOVMSKB X10, CX
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
	MOVOU    (SI), X0
	SPECIAL(X0, X4, X5)
	PMOVMSKB X5, AX
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
