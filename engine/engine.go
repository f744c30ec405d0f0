// Package engine starts the inference server a benchmark runs against (vLLM,
// SGLang, or any command), waits until it serves the model, watches it while
// the test runs, and stops it cleanly.
//
// The MLPerf rules for engine flags (vLLM's --no-enable-prefix-caching, …)
// are not known here: the caller passes them as Rules, so this package never
// names a benchmark.
package engine

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/shellquote"
)

// Kind is the kind of engine launched.
type Kind string

const (
	// VLLM runs `vllm serve MODEL --host H --port P ARGS…`.
	VLLM Kind = "vllm"
	// SGLang runs `python3 -m sglang.launch_server --model-path MODEL --host H --port P ARGS…`.
	SGLang Kind = "sglang"
	// Command runs Spec.Command through /bin/sh with {host}, {port} and
	// {model} replaced; the rules are not applied to it (its flags are
	// unknown).
	Command Kind = "command"
)

// Kinds lists the engine kinds, for help texts.
func Kinds() []string { return []string{string(VLLM), string(SGLang), string(Command)} }

// ParseKind checks an engine kind's name.
func ParseKind(s string) (Kind, error) {
	k := Kind(strings.ToLower(strings.TrimSpace(s)))
	if slices.Contains(Kinds(), string(k)) {
		return k, nil
	}
	return "", fmt.Errorf("engine %q: use %s", s, strings.Join(Kinds(), ", "))
}

// DefaultPort is the port each kind listens on by default, the engines' own
// defaults (vLLM 8000, SGLang 30000).
func DefaultPort(k Kind) int {
	if k == SGLang {
		return 30000
	}
	return 8000
}

// FreePort as Spec.Port asks Start for a free port on Host.
const FreePort = -1

// DefaultHost is where a launched engine listens unless told otherwise:
// loopback, since the harness runs beside it.
const DefaultHost = "127.0.0.1"

// Spec says what engine to launch and how.
type Spec struct {
	// Kind is vllm, sglang or command.
	Kind Kind
	// Model is the model the engine loads (a Hugging Face id or a path). It
	// is also the name the engine serves it under unless Args set
	// --served-model-name.
	Model string
	// Host and Port are where the engine listens (DefaultHost and
	// DefaultPort(Kind) when empty or 0; FreePort picks a free port at
	// Start).
	Host string
	Port int
	// Args are extra engine arguments, after the ones the harness sets.
	Args []string
	// Env is added to the harness's environment for the engine.
	Env map[string]string
	// Command is the shell command of a Command engine; for vllm and
	// sglang it replaces the program (e.g. "uv run vllm") when set.
	Command string
}

// withDefaults fills Host and Port.
func (s Spec) withDefaults() Spec {
	if s.Host == "" {
		s.Host = DefaultHost
	}
	if s.Port == 0 {
		s.Port = DefaultPort(s.Kind)
	}
	return s
}

// URL is the base URL the harness reaches the engine at. An engine listening
// on every interface (0.0.0.0, ::) is reached on loopback.
func (s Spec) URL() string {
	s = s.withDefaults()
	host := s.Host
	if host == "0.0.0.0" || host == "::" || host == "[::]" {
		host = "127.0.0.1"
	}
	return (&url.URL{Scheme: "http", Host: net.JoinHostPort(strings.Trim(host, "[]"), strconv.Itoa(s.Port))}).String()
}

// ServedModel is the model name the engine serves, the one requests must
// name: --served-model-name's first value when Args set it, else Model.
func (s Spec) ServedModel() string {
	for i, a := range s.Args {
		name, val, hasVal := strings.Cut(a, "=")
		if normalizeFlag(name) != "--served-model-name" {
			continue
		}
		if hasVal {
			return val
		}
		if i+1 < len(s.Args) {
			return s.Args[i+1]
		}
	}
	return s.Model
}

// Argv is the command line that launches the engine, after applying rules to
// the engine arguments (vllm and sglang only). It refuses arguments the rules
// forbid and the ones the harness sets itself (--host, --port, the model).
func (s Spec) Argv(rules Rules) ([]string, error) {
	s = s.withDefaults()
	if s.Kind == Command {
		if strings.TrimSpace(s.Command) == "" {
			return nil, fmt.Errorf("engine command: give the command to run (--engine-command or command: in the engine config)")
		}
		cmd := strings.NewReplacer("{host}", s.Host, "{port}", strconv.Itoa(s.Port), "{model}", s.Model).Replace(s.Command)
		for _, a := range s.Args {
			cmd += " " + shellquote.Quote(a)
		}
		// Stop signals the whole process group, so the shell need not exec
		// the engine: the command may be a pipeline or a list.
		return []string{"/bin/sh", "-c", cmd}, nil
	}
	if s.Model == "" {
		return nil, fmt.Errorf("engine %s: no model to serve (set --model or model: in the engine config)", s.Kind)
	}
	owned := map[string]string{"--host": "host", "--port": "port"}
	if s.Kind == VLLM {
		owned["--model"] = "model"
	} else {
		owned["--model-path"] = "model"
	}
	for _, a := range s.Args {
		name, _, _ := strings.Cut(a, "=")
		if what, ok := owned[normalizeFlag(name)]; ok {
			return nil, fmt.Errorf("engine argument %s: the harness sets the %s itself; use --engine-%s (or %s: in the engine config) instead", a, what, what, what)
		}
	}
	args, err := rules.Apply(s.Args)
	if err != nil {
		return nil, err
	}
	var prog []string
	if s.Command != "" {
		prog = []string{"/bin/sh", "-c", `exec ` + s.Command + ` "$@"`, "engine"}
	}
	switch s.Kind {
	case VLLM:
		if prog == nil {
			prog = []string{"vllm"}
		}
		prog = append(prog, "serve", s.Model)
	case SGLang:
		if prog == nil {
			prog = []string{"python3", "-m", "sglang.launch_server"}
		}
		prog = append(prog, "--model-path", s.Model)
	default:
		return nil, fmt.Errorf("engine %q: use %s", s.Kind, strings.Join(Kinds(), ", "))
	}
	prog = append(prog, "--host", s.Host, "--port", strconv.Itoa(s.Port))
	return append(prog, args...), nil
}
