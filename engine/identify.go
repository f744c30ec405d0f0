package engine

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
)

// Served is what a server says it is: the engine's name and version, as
// its own routes report them.
type Served struct {
	// Name is "vLLM" or "SGLang".
	Name string
	// Version is the engine's version string as it reports it (vLLM's
	// CPU build reports "0.32.0+cpu").
	Version string
}

// String is the engine as a submission README names it: "vLLM 0.32.0".
func (s Served) String() string {
	if s.Name == "" {
		return ""
	}
	return strings.TrimSpace(s.Name + " " + s.Version)
}

// identityRoutes are the routes that name an engine and its version, tried
// in order: SGLang's /get_server_info first (its server arguments and
// "version"), then vLLM's /version ({"version": …}), which other servers
// may also answer with their own versions, so it is asked last.
var identityRoutes = []struct {
	route, name string
}{
	{"/get_server_info", "SGLang"},
	{"/version", "vLLM"},
}

// Identify asks the server behind endpoint (a URL as --endpoint takes it)
// which engine and version it is. ok is false when no route answers with
// a version: a gateway, or an engine that does not say.
func Identify(ctx context.Context, client *http.Client, endpoint, apiKey string) (s Served, ok bool) {
	base := serverRoot(endpoint)
	for _, r := range identityRoutes {
		code, body, err := get(ctx, client, routeURL(base, r.route), apiKey)
		if err != nil || code != http.StatusOK {
			continue
		}
		var v struct {
			Version string `json:"version"`
		}
		if json.Unmarshal(body, &v) == nil && v.Version != "" {
			return Served{Name: r.name, Version: v.Version}, true
		}
	}
	return Served{}, false
}
