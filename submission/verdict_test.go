package submission

import (
	"strings"
	"testing"
)

// TestJudgePartialAccuracy: llama3.1-8b's accuracy.txt of 20 samples
// (--total-sample-count 20, --quick) is judged on its ROUGE scores, means
// a partial log can meet, while gen_len, a total of characters over all
// 13,368 summaries, is left unjudged instead of failing it; the same file
// from a full log is judged on every metric, and a ROUGE below its bound
// fails the partial verdict too.
func TestJudgePartialAccuracy(t *testing.T) {
	txt := func(rouge1 string) []byte {
		return []byte("{'rouge1': '" + rouge1 + "', 'rouge2': '30.1', 'rougeL': '40.2', 'rougeLsum': '50.3', 'gen_len': 11424, 'gen_num': 20}\nhash=00\n")
	}
	v, err := JudgePartialAccuracy("llama3_1-8b", "v6.1", "Offline", txt("54.1"), 20)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Pass || v.Partial != "20 of 13368 samples" || v.Verdict() != "PASS" {
		t.Errorf("partial verdict: pass %v, partial %q, want PASS on 20 of 13368 samples", v.Pass, v.Partial)
	}
	for _, m := range v.Metrics {
		if (m.Name == "GEN_LEN") != m.NotJudged || (m.Name == "GEN_LEN") != (m.Verdict() == "NOT JUDGED") {
			t.Errorf("%s: not judged %v, verdict %s; only GEN_LEN, a total, is left unjudged", m.Name, m.NotJudged, m.Verdict())
		}
	}
	for _, p := range v.Problems {
		if strings.Contains(p, "GEN_LEN") {
			t.Errorf("a partial log's problems name the total it cannot reach: %q", p)
		}
	}

	full, err := JudgePartialAccuracy("llama3_1-8b", "v6.1", "Offline", txt("54.1"), 13368)
	if err != nil {
		t.Fatal(err)
	}
	if full.Pass || full.Partial != "" || len(full.Problems) != 1 || !strings.HasPrefix(full.Problems[0], "GEN_LEN = 11424 is below the required 7350879.6") {
		t.Errorf("a full log with gen_len 11424: pass %v, partial %q, problems %q", full.Pass, full.Partial, full.Problems)
	}

	low, err := JudgePartialAccuracy("llama3_1-8b", "v6.1", "Offline", txt("12.5"), 20)
	if err != nil {
		t.Fatal(err)
	}
	if low.Pass || len(low.Problems) != 1 || !strings.HasPrefix(low.Problems[0], "ROUGE1 = 12.5 is below the required 38.391408") {
		t.Errorf("a partial log with ROUGE1 12.5: pass %v, problems %q", low.Pass, low.Problems)
	}
}
