//go:build cgo

package loadgen

// Where cgo finds the native libraries: the #cgo lines and nothing else.
//
// CMake (make, or cmake -S . -B DIR && cmake --build DIR) builds
// libmlperf_loadgen.a and libmlperf_go_shim.a into DIR/lib and then writes
// DIR/include/mlperf_go_native.h. The defaults below name make's DIR,
// build/; builds through CMake put their own DIR first with CGO_CFLAGS and
// CGO_LDFLAGS (scripts/go-native.sh). The libraries are linked by name
// (-l) rather than by path so that a DIR given that way wins over build/.
//
// A go build before the libraries exist stops at the #error below, which
// says how to build them, instead of at a linker error that does not.

/*
#cgo CFLAGS: -I${SRCDIR}/../build/include
#cgo LDFLAGS: -L${SRCDIR}/../build/lib -lmlperf_go_shim -lmlperf_loadgen -lstdc++ -lm -lpthread
#if __has_include("mlperf_go_native.h")
#include "mlperf_go_native.h"
#else
#error "mlperf-go: the LoadGen libraries are not built. Run 'make' in the repository root first (or: cmake -S . -B build && cmake --build build). With another build directory DIR, use cmake --build DIR / ctest --test-dir DIR, or set CGO_CFLAGS=-IDIR/include CGO_LDFLAGS=-LDIR/lib. Without cgo (CGO_ENABLED=0) the binary builds but cannot run LoadGen."
#endif
*/
import "C"

// Available reports whether this build links the official LoadGen (a cgo
// build); without it every call into LoadGen returns ErrNoCgo.
const Available = true
