package download

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// maxMetadata bounds a .uri or .md5 metadata file read from the storage: the
// largest listing MLCommons publishes (whisper-dataset.md5, 18,719 lines) is
// about 1.5 MB.
const maxMetadata = 64 << 20

// ParseURI reads a set's .uri metadata file: one line, the http(s) URL of
// the folder the set's files are in (generate-r2-metadata.sh writes it with
// echo, so a trailing newline is normal). The URL is returned without a
// trailing slash.
func ParseURI(b []byte) (string, error) {
	s := strings.TrimSpace(string(b))
	if s == "" {
		return "", fmt.Errorf(".uri is empty: want one line with the URL of the set's folder")
	}
	if strings.ContainsAny(s, "\r\n") {
		return "", fmt.Errorf(".uri has more than one line: want one line with the URL of the set's folder")
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf(".uri %q is not a URL: %v", s, err)
	}
	if (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return "", fmt.Errorf(".uri %q is not an http(s) URL of a folder (no user, query or fragment)", s)
	}
	return strings.TrimRight(s, "/"), nil
}

// Listed is one file of a set's .md5 listing.
type Listed struct {
	// Path is the file's path in the set ("data/train-00000-of-00004.parquet").
	Path string
	// MD5 is its lower-case hex md5, "" where the listing has none (R2 keeps
	// no md5 for objects uploaded in parts; rclone prints blanks).
	MD5 string
}

// ParseListing reads a set's .md5 listing as `rclone md5sum | sort` writes it
// (generate-r2-metadata.sh): per line an md5 of 32 hex digits, or 32 blanks
// where the storage has none, two spaces (or md5sum's " *"), and the path,
// which may contain spaces. A leading "./" is dropped, as the downloader's
// sed does. Blank lines are skipped; a malformed line, a path that would
// leave the download folder and a path listed twice are errors naming the
// line.
func ParseListing(b []byte) ([]Listed, error) {
	if !utf8.Valid(b) {
		return nil, fmt.Errorf(".md5 listing is not UTF-8 text")
	}
	var out []Listed
	seen := map[string]int{}
	for i, line := range strings.Split(string(b), "\n") {
		n := i + 1
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if len(line) < 35 || (line[32:34] != "  " && line[32:34] != " *") {
			return nil, fmt.Errorf(".md5 listing line %d: %q is not \"<md5>  <path>\"", n, line)
		}
		sum := strings.ToLower(line[:32])
		switch {
		case md5Re.MatchString(sum):
		case strings.TrimLeft(sum, " ") == "":
			sum = ""
		default:
			return nil, fmt.Errorf(".md5 listing line %d: %q is not an md5 (32 hex digits, or 32 blanks)", n, line[:32])
		}
		p := strings.TrimPrefix(line[34:], "./")
		if !localPath(p) {
			return nil, fmt.Errorf(".md5 listing line %d: path %q is not a relative path inside the set", n, p)
		}
		if first, dup := seen[p]; dup {
			return nil, fmt.Errorf(".md5 listing line %d: %s is listed again (first on line %d)", n, p, first)
		}
		seen[p] = n
		out = append(out, Listed{Path: p, MD5: sum})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf(".md5 listing lists no file")
	}
	return out, nil
}
