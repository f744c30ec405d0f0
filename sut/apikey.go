package sut

import (
	"fmt"
	"os"
	"strings"
)

// DefaultAPIKeyEnv is the environment variable the API key is read from
// when no file is named: the one OpenAI's clients read.
const DefaultAPIKeyEnv = "OPENAI_API_KEY"

// ReadAPIKey reads the API key (Config.APIKey) from file, or else from the
// environment variable env ("" when unset). A key is never taken as a flag
// value, where it would show in ps and shell history: the errors name the
// --api-key-file flag that names the file.
func ReadAPIKey(file, env string) (string, error) {
	if file == "" {
		return os.Getenv(env), nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("--api-key-file: %w", err)
	}
	k := strings.TrimSpace(string(b))
	if k == "" {
		return "", fmt.Errorf("--api-key-file %s is empty", file)
	}
	return k, nil
}
