package download

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
)

// TestNoSuchHostStopsAtOnce: a source whose host has no address here (an
// air-gapped cluster) fails at the first attempt, naming the setting that
// points that source at a mirror first: HF_ENDPOINT for the hub,
// --storage-url for MLCommons' storage.
func TestNoSuchHostStopsAtOnce(t *testing.T) {
	t.Parallel()
	const host = "no-such-host.invalid"
	var de *net.DNSError
	if _, err := net.LookupHost(host); !errors.As(err, &de) || !de.IsNotFound {
		t.Skipf("this machine's resolver does not answer %s with 'no such host' (%v)", host, err)
	}
	hub := Pin{Role: RoleTokenizer, Dir: "tokenizer", Ref: "t", HF: &HF{Repo: "org/model", Type: Model, Revision: rev, Include: []string{"tokenizer.json"}}}
	r2 := Pin{Role: RoleDataset, Ref: "t", R2: &R2{Set: "set", Base: "http://" + host, Files: map[string]string{"a.json": md5Hex([]byte("x"))}}}
	for _, tc := range []struct {
		name, first string
		pin         Pin
		opt         func(*Options)
	}{
		{"hub", "HF_ENDPOINT", hub, func(o *Options) { o.HF = HFEnv{Endpoint: "http://" + host} }},
		{"storage", "--storage-url", r2, func(o *Options) {}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s sleeps
			o := quick(&s)
			tc.opt(&o)
			_, err := Fetch(context.Background(), t.TempDir(), Request{Pins: []Pin{tc.pin}}, o)
			if err == nil {
				t.Fatal("fetched from a host that does not exist")
			}
			var ge *GaveUpError
			if errors.As(err, &ge) || len(s.waits()) > 0 {
				t.Errorf("retried a host with no address (%d waits): %v", len(s.waits()), err)
			}
			msg := err.Error()
			first := strings.Index(msg, tc.first)
			if !strings.Contains(msg, "no such host") || first < 0 {
				t.Errorf("the error does not say 'no such host' and name %s:\n%s", tc.first, msg)
			}
			for _, other := range []string{"HF_ENDPOINT", "--storage-url", "--pypi-url"} {
				if i := strings.Index(msg, other); i < 0 || i < first {
					t.Errorf("the error does not name %s after %s:\n%s", other, tc.first, msg)
				}
			}
		})
	}
}
