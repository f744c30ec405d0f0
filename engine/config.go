package engine

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"gopkg.in/yaml.v3"
)

// fileConfig is the server-config file: YAML or JSON (JSON is YAML).
//
//	engine: vllm            # vllm, sglang or command
//	model: Qwen/Qwen3-VL-235B-A22B-Instruct
//	host: 127.0.0.1         # optional
//	port: 8000              # optional
//	command: "uv run vllm"  # command engines: the command; others: replaces the program
//	args: [--tensor-parallel-size, "8"]
//	env: {VLLM_USE_V1: "1"}
type fileConfig struct {
	Engine  string            `yaml:"engine"`
	Model   string            `yaml:"model"`
	Host    string            `yaml:"host"`
	Port    *int              `yaml:"port"`
	Command string            `yaml:"command"`
	Args    []string          `yaml:"args"`
	Env     map[string]string `yaml:"env"`
}

// LoadConfig reads a server-config file (YAML or JSON with the fields
// engine, model, host, port, command, args, env). Errors name the file and
// the field or line at fault; unknown fields are errors, so a misspelt one
// is not silently ignored.
func LoadConfig(path string) (Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Spec{}, fmt.Errorf("engine config: %w", err)
	}
	return parseConfig(path, data)
}

func parseConfig(path string, data []byte) (Spec, error) {
	var fc fileConfig
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&fc); err != nil {
		if errors.Is(err, io.EOF) {
			return Spec{}, fmt.Errorf("engine config %s is empty: give at least engine: and model:", path)
		}
		return Spec{}, fmt.Errorf("engine config %s: %v (fields: engine, model, host, port, command, args, env)", path, err)
	}
	s := Spec{Model: fc.Model, Host: fc.Host, Command: fc.Command, Args: fc.Args, Env: fc.Env}
	if fc.Engine != "" {
		k, err := ParseKind(fc.Engine)
		if err != nil {
			return Spec{}, fmt.Errorf("engine config %s: field engine: %v", path, err)
		}
		s.Kind = k
	}
	if fc.Port != nil {
		if *fc.Port < 0 || *fc.Port > 65535 {
			return Spec{}, fmt.Errorf("engine config %s: field port: %d is not a TCP port (0 picks a free one)", path, *fc.Port)
		}
		s.Port = *fc.Port
		if s.Port == 0 {
			s.Port = FreePort
		}
	}
	return s, nil
}
