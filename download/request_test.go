package download

import (
	"strings"
	"testing"
)

// TestSelectRoles: --only keeps the pins of the roles it names, all of
// them without it, and a role no pin has is refused with the roles there
// are; --extra takes only a known set.
func TestSelectRoles(t *testing.T) {
	t.Parallel()
	pins := []Pin{{Role: RoleDataset}, {Role: RoleTokenizer}}
	req, err := SelectRoles("b", "v6.1", pins, []string{RoleTokenizer})
	if err != nil || req.For != "b v6.1" || len(req.Pins) != 1 || req.Pins[0].Role != RoleTokenizer {
		t.Errorf("--only tokenizer: %+v, %v", req, err)
	}
	if req, err := SelectRoles("b", "v6.1", pins, nil); err != nil || len(req.Pins) != 2 {
		t.Errorf("no --only: %+v, %v", req, err)
	}
	if _, err := SelectRoles("b", "v6.1", pins, []string{"weights"}); err == nil || !strings.Contains(err.Error(), "--only weights: b pins dataset, tokenizer") {
		t.Errorf("--only weights: %v", err)
	}
	if req, err := ExtraRequest("mmlu"); err != nil || req.For != "mmlu" || len(req.Pins) != 1 {
		t.Errorf("--extra mmlu: %+v, %v", req, err)
	}
	if _, err := ExtraRequest("nope"); err == nil || !strings.Contains(err.Error(), "use one of mmlu") {
		t.Errorf("--extra nope: %v", err)
	}
}
