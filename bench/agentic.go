package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"time"
)

// mlcommons/endpoints' agentic inference replay
// (examples/10_Agentic_Inference, src/inference_endpoint/dataset_manager/
// agentic_inference_dataset.py): flat JSONL, one row per message, rows of
// a conversation contiguous, turns numbered 1…N. User and tool rows are
// the client's turns; each is sent with the whole conversation before it
// as the dataset records it (system prompt, earlier client rows and the
// recorded assistant rows), so the replies the model gives are measured
// but not carried. Tool rows expand to one tool message per result;
// delay_seconds is the wait before a client turn (a tool's run time).

// agenticDefaultMaxTokens is endpoints' max_new_tokens when a
// conversation names none.
const agenticDefaultMaxTokens = 128

// agenticRow is one row, members kept as JSON.
type agenticRow map[string]json.RawMessage

func (r agenticRow) str(k string) (string, bool) {
	var s string
	if v, ok := r[k]; ok && json.Unmarshal(v, &s) == nil {
		return s, true
	}
	return "", false
}

// present reports whether member k is there and not null.
func (r agenticRow) present(k string) bool {
	v, ok := r[k]
	return ok && !bytes.Equal(bytes.TrimSpace(v), []byte("null"))
}

func (r agenticRow) int(k string) int {
	var f float64
	if v, ok := r[k]; ok && json.Unmarshal(v, &f) == nil {
		return int(f)
	}
	return 0
}

// LoadAgentic reads an agentic replay file. trajectories is how many
// conversations to run (0: each once); more repeat them in order under
// new IDs ("<id>__repeat_<n>"), as endpoints' num_trajectories_to_issue.
// Tool delays are kept only when toolDelays is set (endpoints'
// inject_tool_delay).
func LoadAgentic(path string, trajectories int, toolDelays bool) (*Workload, error) {
	convs, err := readAgentic(path)
	if err != nil {
		return nil, err
	}
	if len(convs) == 0 {
		return nil, fmt.Errorf("%s: no conversations", path)
	}
	w := &Workload{Kind: "agentic", Source: path, Replay: true, MultiTurn: -1,
		Facts: map[string]any{"conversations_in_file": len(convs), "tool_delays": toolDelays}}
	if trajectories <= 0 {
		trajectories = len(convs)
	}
	for i := range trajectories {
		c := convs[i%len(convs)]
		if rep := i/len(convs) + 1; rep > 1 {
			c.ID = c.ID + "__repeat_" + strconv.Itoa(rep)
		}
		if !toolDelays {
			c.Turns = slices.Clone(c.Turns)
			for t := range c.Turns {
				c.Turns[t].Delay = 0
			}
		}
		w.Conversations = append(w.Conversations, c)
	}
	return w, nil
}

// readAgentic parses and checks the file as endpoints' dataset does.
func readAgentic(path string) ([]Conversation, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("agentic workload: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	var groups [][]agenticRow
	var ids []string
	seen := map[string]bool{}
	line := 0
	for sc.Scan() {
		line++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var row agenticRow
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		if t, _ := row.str("_type"); t == "dataset_metadata" {
			continue
		}
		id, ok := row.str("conversation_id")
		if !ok {
			var n json.Number
			if json.Unmarshal(row["conversation_id"], &n) == nil && n != "" {
				id, ok = n.String(), true
			}
		}
		if !ok || id == "" {
			return nil, fmt.Errorf("%s:%d: conversation_id must be a non-empty string", path, line)
		}
		if len(ids) == 0 || ids[len(ids)-1] != id {
			if seen[id] {
				return nil, fmt.Errorf("%s:%d: rows of conversation %q are not consecutive; all rows of a conversation must appear together", path, line, id)
			}
			seen[id] = true
			ids = append(ids, id)
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], row)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	convs := make([]Conversation, len(groups))
	for i, g := range groups {
		c, err := agenticConversation(ids[i], g)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		convs[i] = c
	}
	return convs, nil
}

// validNext is endpoints' role state machine.
var validNext = map[string][]string{"start": {"user"}, "user": {"assistant"}, "assistant": {"tool", "user"}, "tool": {"assistant", "user"}}

// agenticConversation checks one conversation's rows and turns them into
// client turns with the recorded assistant rows after each.
func agenticConversation(id string, rows []agenticRow) (Conversation, error) {
	slices.SortStableFunc(rows, func(a, b agenticRow) int { return a.int("turn") - b.int("turn") })
	c := Conversation{ID: id}
	state, prevCalls := "start", false
	maxTokens := 0
	for i, row := range rows {
		turn := row.int("turn")
		if turn != i+1 {
			return c, fmt.Errorf("conversation %s: turn numbers must be 1, 2, …, %d; found %d at position %d", id, len(rows), turn, i+1)
		}
		role, _ := row.str("role")
		if !slices.Contains(validNext[state], role) {
			return c, fmt.Errorf("conversation %s turn %d: role %q cannot follow %q", id, turn, role, state)
		}
		msgs, err := agenticMessages(row, role, prevCalls)
		if err != nil {
			return c, fmt.Errorf("conversation %s turn %d: %w", id, turn, err)
		}
		prevCalls = role == "assistant" && row.present("tool_calls")
		state = role
		if role == "assistant" {
			last := &c.Turns[len(c.Turns)-1]
			last.Recorded = append(last.Recorded, msgs...)
			continue
		}
		if role == "user" && len(c.Turns) == 0 {
			if s, _ := row.str("system"); s != "" {
				sys, _ := json.Marshal(map[string]string{"role": "system", "content": s})
				msgs = append([]json.RawMessage{sys}, msgs...)
			}
			if row.present("tools") {
				c.Tools = row["tools"]
			}
			maxTokens = cmp0(row.int("max_new_tokens"), row.int("max_completion_tokens"), row.int("max_tokens"), agenticDefaultMaxTokens)
		}
		t := Turn{Messages: msgs, MaxTokens: cmp0(row.int("max_new_tokens"), row.int("max_completion_tokens"), row.int("max_tokens"), maxTokens)}
		var d float64
		if v, ok := row["delay_seconds"]; ok && json.Unmarshal(v, &d) == nil && d > 0 {
			t.Delay = time.Duration(d * float64(time.Second))
		}
		c.Turns = append(c.Turns, t)
	}
	return c, nil
}

// cmp0 returns the first non-zero value, as Python's `a or b or c`.
func cmp0(vs ...int) int {
	for _, v := range vs {
		if v != 0 {
			return v
		}
	}
	return 0
}

// agenticMessages checks a row and returns its chat messages: a tool
// row's results each as a tool message, any other row as one message of
// its role, content, name, tool_calls and reasoning_content (content null
// for a tool-dispatching assistant row without content).
func agenticMessages(row agenticRow, role string, prevCalls bool) ([]json.RawMessage, error) {
	switch role {
	case "tool":
		if !prevCalls {
			return nil, fmt.Errorf("a tool row must follow an assistant row with tool_calls")
		}
		var results []map[string]json.RawMessage
		if err := json.Unmarshal(row["tool_results"], &results); err != nil || len(results) == 0 {
			return nil, fmt.Errorf("tool rows need a non-empty tool_results list")
		}
		var out []json.RawMessage
		for k, r := range results {
			var id string
			if json.Unmarshal(r["tool_call_id"], &id) != nil || id == "" {
				return nil, fmt.Errorf("tool_results[%d]: tool_call_id must be a non-empty string", k)
			}
			content, ok := r["content"]
			if !ok || bytes.Equal(bytes.TrimSpace(content), []byte("null")) {
				return nil, fmt.Errorf("tool_results[%d]: content is required", k)
			}
			m := append([]byte(`{"role":"tool","tool_call_id":`), r["tool_call_id"]...)
			m = append(append(append(m, `,"content":`...), content...), '}')
			out = append(out, m)
		}
		return out, nil
	case "user":
		if s, ok := row.str("content"); !ok || s == "" {
			if !row.present("content") || string(row["content"]) == `""` {
				return nil, fmt.Errorf("user rows need a non-empty content")
			}
		}
		if prevCalls {
			return nil, fmt.Errorf("a user row cannot follow an assistant row with tool_calls; a tool row is required first")
		}
	case "assistant":
		var calls []json.RawMessage
		hasCalls := row.present("tool_calls") && json.Unmarshal(row["tool_calls"], &calls) == nil && len(calls) > 0
		if row.present("tool_calls") && !hasCalls {
			return nil, fmt.Errorf("tool_calls must be a non-empty list when present")
		}
		if s, _ := row.str("content"); !hasCalls && s == "" && !(row.present("content") && row["content"][0] == '[') {
			return nil, fmt.Errorf("assistant rows need a non-empty content or tool_calls")
		}
	}
	m := append([]byte(`{"role":`), row["role"]...)
	for _, k := range []string{"content", "name", "tool_calls", "reasoning_content"} {
		if row.present(k) {
			m = append(append(append(append(m, `,"`...), k...), `":`...), row[k]...)
		} else if k == "content" && role == "assistant" && row.present("tool_calls") {
			m = append(m, `,"content":null`...)
		}
	}
	return []json.RawMessage{append(m, '}')}, nil
}
