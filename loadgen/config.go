//go:build cgo

package loadgen

/*
#include <stdlib.h>
#include "mlpg_shim.h"
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// FromConfig's conf_type values (test_settings_internal.cc).
const (
	confOfficial = 0 // the mlperf.conf compiled into LoadGen; path ignored
	confUser     = 2 // a file; seeds and test05 keys are not read
)

// SettingsFromConfig returns the settings LoadGen would run model in
// scenario and mode with: mlperf::TestSettings' defaults, then the official
// mlperf.conf compiled into LoadGen (FromConfig with conf_type 0, which also
// sets the round's RNG seeds), then userConfPath if it is not "".
//
// userConfPath is first checked by ParseConfFile, so a missing file, a line
// LoadGen would reject, and a line LoadGen would silently ignore are all
// errors naming the file and line; only then does LoadGen's own
// TestSettings::FromConfig read it, and a non-zero return from it is an error
// too. A "mode" key in user.conf overrides mode, as in LoadGen.
//
// The user file is read with conf_type 2 rather than LoadGen's default 1: type
// 1 loads the official conf itself on the first call in a process and logs
// "Multiple conf files are used. This is not valid for official submission."
// into the next test's detail log on every later call, although each test
// here reads exactly one user.conf. Both types read the same keys.
func SettingsFromConfig(model string, scenario Scenario, mode Mode, userConfPath string) (TestSettings, error) {
	s := DefaultTestSettings()
	s.Scenario, s.Mode = scenario, mode
	if err := s.validate(); err != nil {
		return TestSettings{}, err
	}
	if model == "" {
		return TestSettings{}, fmt.Errorf("loadgen: SettingsFromConfig needs a model name")
	}
	if userConfPath != "" {
		if _, err := ParseConfFile(userConfPath); err != nil {
			return TestSettings{}, err
		}
	}
	if err := s.applyConfig("", model, confOfficial); err != nil {
		return TestSettings{}, fmt.Errorf("loadgen: official mlperf.conf built into LoadGen: %w", err)
	}
	if userConfPath != "" {
		if err := s.applyConfig(userConfPath, model, confUser); err != nil {
			return TestSettings{}, fmt.Errorf("loadgen: %s: %w", userConfPath, err)
		}
	}
	if err := s.validate(); err != nil {
		return TestSettings{}, fmt.Errorf("loadgen: settings after %s: %w", userConfPath, err)
	}
	return s, nil
}

// applyConfig runs TestSettings::FromConfig(path, model, s.Scenario,
// confType) on a copy of s and stores the result in s.
func (s *TestSettings) applyConfig(path, model string, confType int) error {
	c := s.toC()
	cPath, cModel, cScen := C.CString(path), C.CString(model), C.CString(s.Scenario.String())
	defer C.free(unsafe.Pointer(cPath))
	defer C.free(unsafe.Pointer(cModel))
	defer C.free(unsafe.Pointer(cScen))
	var ret C.int
	var cerr *C.char
	switch C.mlpg_settings_from_config(&c, cPath, cModel, cScen, C.int(confType), &ret, &cerr) {
	case C.MLPG_OK:
		*s = settingsFromC(&c)
		return nil
	case C.MLPG_ERR_CONFIG:
		return fmt.Errorf("LoadGen's TestSettings::FromConfig returned %d (-2 cannot open the file, -22 a malformed line)", int(ret))
	default:
		return cError("FromConfig", cerr)
	}
}

// MLPerfConf returns the official mlperf.conf compiled into the linked
// LoadGen (its mlperf_conf.h). Its RNG seeds decide the submission round.
func MLPerfConf() string {
	return C.GoString(C.mlpg_mlperf_conf())
}

// Version returns the linked LoadGen's version (its VERSION.txt, as logged
// in loadgen_version), e.g. "6.0.17".
func Version() string {
	return C.GoString(C.mlpg_loadgen_version())
}
