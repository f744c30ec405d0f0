// Package redact keeps secrets out of everything mlperf-go writes or prints:
// URLs lose their user information and their query values (gateways take
// keys as ?api_key=…), flag values of secret-looking flags are replaced, and
// URLs inside free text (an error message that repeats the request URL) are
// treated alike. Requests themselves still go to the URL as given.
package redact

import (
	"net/url"
	"regexp"
	"strings"
)

// Mark replaces every redacted value.
const Mark = "REDACTED"

// URL returns u without user information and with each query value
// replaced by Mark (the keys stay, so a reader sees what was passed);
// unparsable input becomes "(unparsable URL)", since it might hold a
// secret in a form not seen.
func URL(u string) string {
	p, err := url.Parse(strings.TrimSpace(u))
	if err != nil {
		return "(unparsable URL)"
	}
	p.User = nil
	p.RawQuery = redactQuery(p.RawQuery)
	return p.String()
}

// URLs applies URL to each of us (nil for nil).
func URLs(us []string) []string {
	if us == nil {
		return nil
	}
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = URL(u)
	}
	return out
}

// redactQuery replaces each value of a raw query string by Mark, keeping
// the keys and their order.
func redactQuery(q string) string {
	if q == "" {
		return ""
	}
	parts := strings.Split(q, "&")
	for i, kv := range parts {
		if k, _, ok := strings.Cut(kv, "="); ok {
			parts[i] = k + "=" + Mark
		}
	}
	return strings.Join(parts, "&")
}

// inText matches a URL's user information (group 1 ends before it) or its
// query string (group 2) inside free text.
var (
	userinfo = regexp.MustCompile(`(://)[^/\s"']*@`)
	query    = regexp.MustCompile(`(://[^\s"'?]*\?)([^\s"'#]*)`)
)

// Text removes the user information and the query values of every URL in
// s, and the values of secret flags inside it (a shell command given as one
// string, "vllm serve M --api-key S", or an error that repeats one).
func Text(s string) string {
	s = userinfo.ReplaceAllString(s, "$1")
	s = query.ReplaceAllStringFunc(s, func(m string) string {
		head, q, _ := strings.Cut(m, "?")
		return head + "?" + redactQuery(q)
	})
	return flagInText.ReplaceAllStringFunc(s, func(m string) string {
		sub := flagInText.FindStringSubmatch(m)
		if !secretFlag(sub[2]) {
			return m
		}
		return sub[1] + sub[2] + sub[3] + Mark
	})
}

// flagInText matches a flag and its value inside text: what precedes it
// (group 1), its name (2), the separator (3) and the value, quoted or not.
var flagInText = regexp.MustCompile(`(^|[\s"'])(--?[A-Za-z][A-Za-z0-9_.-]*)(=|[ \t]+)("[^"]*"|'[^']*'|[^\s"'-][^\s"']*)`)

// secretWords are the words of a flag name that say its value is a secret.
var secretWords = []string{"key", "token", "secret", "password", "passwd", "auth", "credential", "credentials"}

// secretFlag reports whether the flag name carries a secret: one of its
// words ("--api-key", "--hf-token", "--secret-file") is, or ends with
// ("--apikey", "--hftoken"), a secret word. "--max-tokens" and
// "--tokenizer" are not: their values are counts and paths a reader of the
// run record needs.
func secretFlag(name string) bool {
	words := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	for _, w := range words {
		for _, s := range secretWords {
			if w == s || (len(w) > len(s) && strings.HasSuffix(w, s) && s != "auth") {
				return true
			}
		}
	}
	return false
}

// Args returns args with the values of secret-looking flags ("--api-key X",
// "--hf-token=X") replaced by Mark and URLs redacted as Text does.
// mlperf-go never takes a secret as a flag value, but engine flags the user
// declares might, and an endpoint URL may carry one.
func Args(args []string) []string {
	if args == nil {
		return nil
	}
	out := make([]string, len(args))
	redactNext := false
	for i, a := range args {
		switch {
		case redactNext && !strings.HasPrefix(a, "-"):
			out[i] = Mark
			redactNext = false
			continue
		case strings.HasPrefix(a, "-"):
			name, _, hasValue := strings.Cut(a, "=")
			// A flag and its value in one element ("--api-key xyz").
			name, _, spaced := strings.Cut(name, " ")
			secret := secretFlag(name)
			redactNext = secret && !hasValue && !spaced
			if secret && (hasValue || spaced) {
				sep := "="
				if spaced && !hasValue {
					sep = " "
				}
				out[i] = name + sep + Mark
				continue
			}
		default:
			redactNext = false
		}
		out[i] = Text(a)
	}
	return out
}
