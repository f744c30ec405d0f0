package results

import (
	"net/url"
	"regexp"
	"strings"
)

// RedactURL returns u without user information; unparsable input becomes
// "(unparsable URL)", since it might hold a secret in a form not seen.
func RedactURL(u string) string {
	p, err := url.Parse(strings.TrimSpace(u))
	if err != nil {
		return "(unparsable URL)"
	}
	p.User = nil
	return p.String()
}

// userinfo matches the user information of URLs inside free text.
var userinfo = regexp.MustCompile(`(://)[^/@\s]+@`)

// RedactText removes the user information of every URL in s.
func RedactText(s string) string { return userinfo.ReplaceAllString(s, "$1") }

// secretFlag matches flag names that carry secrets.
var secretFlag = regexp.MustCompile(`(?i)(key|token|secret|password|passwd|auth)`)

// RedactArgs returns args with the values of secret-looking flags
// ("--api-key X", "--hf-token=X") replaced by "REDACTED" and URLs without
// user information. mlperf-go never takes a secret as a flag value, but
// engine flags the user declares might.
func RedactArgs(args []string) []string {
	if args == nil {
		return nil
	}
	out := make([]string, len(args))
	redactNext := false
	for i, a := range args {
		switch {
		case redactNext && !strings.HasPrefix(a, "-"):
			out[i] = "REDACTED"
			redactNext = false
			continue
		case strings.HasPrefix(a, "-"):
			name, _, hasValue := strings.Cut(a, "=")
			// A flag and its value in one element ("--api-key xyz").
			name, _, spaced := strings.Cut(name, " ")
			secret := secretFlag.MatchString(name)
			redactNext = secret && !hasValue && !spaced
			if secret && (hasValue || spaced) {
				sep := "="
				if spaced && !hasValue {
					sep = " "
				}
				out[i] = name + sep + "REDACTED"
				continue
			}
		default:
			redactNext = false
		}
		out[i] = RedactText(a)
	}
	return out
}
