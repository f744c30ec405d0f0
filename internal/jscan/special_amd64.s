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

// VSPECIAL is SPECIAL on 32 bytes (AVX2: three operands, so no copies).
#define VSPECIAL(x, t, m) \
	VPXOR    Y1, x, t; \
	VPMINUB  Y3, t, m; \
	VPCMPEQB t, m, m;  \
	VPCMPEQB Y2, x, x; \
	VPOR     x, m, m

// func specialBlocksSIMD(b []byte, avx2 bool) int
//
// A byte x is special if x == '\\' (PCMPEQB against a broadcast) or
// x <= 0x1f or x == '"'. The last two are one test: y = x ^ 0x02 maps
// 0x00-0x1f onto itself and '"' (0x22) to 0x20, and every other byte above
// 0x20, so they are the bytes with min(y, 0x20) == y (PMINUB, PCMPEQB).
// With avx2, 64 bytes a round first; then 32 bytes a round
// with SSE2, then one round of 16; the 0-15 bytes left are the caller's.
TEXT ·specialBlocksSIMD(SB), NOSPLIT, $0-40
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

	CMPB avx2+24(FP), $1
	JNE  loop32
	CMPQ BX, $64
	JB   loop32
	VPBROADCASTB X1, Y1
	VPBROADCASTB X2, Y2
	VPBROADCASTB X3, Y3

loop64:
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y8
	VSPECIAL(Y0, Y4, Y5)
	VSPECIAL(Y8, Y9, Y10)
	VPOR     Y5, Y10, Y12
	VPTEST   Y12, Y12
	JNZ      found64
	ADDQ     $64, SI
	SUBQ     $64, BX
	CMPQ     BX, $64
	JAE      loop64
	// The low halves still hold the SSE2 constants.
	VZEROUPPER
	JMP      loop32

found64:
	VPMOVMSKB Y5, AX
	VPMOVMSKB Y10, CX
	VZEROUPPER
	SHLQ      $32, CX
	ORQ       CX, AX
	BSFQ      AX, AX
	JMP       found

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
	JMP      found

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
	MOVQ SI, ret+32(FP)
	RET

found16:
	BSFL AX, AX

// AX is the special byte's offset from SI.
found:
	SUBQ DI, SI
	ADDQ SI, AX
	MOVQ AX, ret+32(FP)
	RET
