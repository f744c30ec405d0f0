package download

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"syscall"
	"time"
)

// AccessError is a 401 or 403 from the hub or the storage: the files are
// gated or members-only. The command exits 2 on it.
type AccessError struct {
	// Status is the HTTP status; URL what was asked for; What a description
	// ("the file list of meta-llama/Llama-3.1-8B-Instruct@0e9e39f").
	Status    int
	URL, What string
	// Page is where access is granted (the model page, the storage's
	// licence page), TokenFrom where the token sent came from ("" if none
	// was sent).
	Page, TokenFrom string
	// ServerMessage is what the server said (X-Error-Message), if anything.
	ServerMessage string
	// MembersOnly marks storage behind Cloudflare Access (MLCommons
	// members), which only mlc-r2-downloader.sh can log in to.
	MembersOnly bool
	// NotFound marks the hub's RepoNotFound: no such repository, or a
	// private one the token (if any) cannot see.
	NotFound bool
}

func (e *AccessError) Error() string {
	said := ""
	if e.ServerMessage != "" {
		said = fmt.Sprintf(" (the server says: %s)", e.ServerMessage)
	}
	switch {
	case e.NotFound:
		return fmt.Sprintf("%s: the hub says the repository does not exist or is private (HTTP %d)%s: check the pin's repository id; for a private or gated repository, accept its licence at %s and set HF_TOKEN to a read token of an account with access",
			e.What, e.Status, said, e.Page)
	case e.MembersOnly:
		return fmt.Sprintf("%s is members-only (HTTP %d from %s)%s: sign the licence at %s, then fetch it with mlcommons/r2-downloader's mlc-r2-downloader.sh (it logs in with Cloudflare Access) into the download folder and re-run this command to verify it",
			e.What, e.Status, e.URL, said, e.Page)
	case e.TokenFrom == "":
		return fmt.Sprintf("%s needs a Hugging Face token (HTTP %d)%s: the repository is gated or private: accept its licence at %s while logged in, create a read token at https://huggingface.co/settings/tokens, and set HF_TOKEN to it",
			e.What, e.Status, said, e.Page)
	default:
		return fmt.Sprintf("%s: access denied with the token from %s (HTTP %d)%s: accept the licence at %s with the account the token belongs to (gated repositories may take a while to approve), or set HF_TOKEN to a token of an account that has access",
			e.What, e.TokenFrom, e.Status, said, e.Page)
	}
}

// ChecksumError is a downloaded file whose checksum differs from the one
// its source publishes (or the pin fixes). The partial file is removed.
type ChecksumError struct {
	// File is the path in the download folder; Algo "sha256", "md5" or
	// "git-sha1" (the git blob id); Want and Got hex digests; Source names
	// who published Want.
	File, Algo, Want, Got, Source string
	// Removed says the .part file was deleted.
	Removed bool
}

func (e *ChecksumError) Error() string {
	rm := ""
	if e.Removed {
		rm = "; the partial file was removed"
	}
	return fmt.Sprintf("checksum mismatch for %s: %s is %s, %s says %s%s; re-run to download it again (if it fails again the source serves other bytes than the pin: report it)",
		e.File, e.Algo, e.Got, e.Source, e.Want, rm)
}

// DiskFullError is a download that does not fit: found before it started
// (Written 0) or when a write failed with ENOSPC.
type DiskFullError struct {
	// Dir is the download folder; Need the bytes still to write (0 when
	// unknown); Free the bytes free when known (-1 otherwise); File the file
	// being written, if any.
	Dir, File  string
	Need, Free int64
	Err        error
}

func (e *DiskFullError) Error() string {
	free := ""
	if e.Free >= 0 {
		free = fmt.Sprintf(", %s are free", FormatBytes(e.Free))
	}
	at := ""
	if e.File != "" {
		at = " while writing " + e.File
	}
	need := "more space"
	if e.Need > 0 {
		need = FormatBytes(e.Need) + " more"
	}
	return fmt.Sprintf("not enough disk space in %s%s: the download needs %s%s; free space or choose another --out, then re-run (finished files and .part files are kept and resumed)",
		e.Dir, at, need, free)
}

func (e *DiskFullError) Unwrap() error { return e.Err }

// GaveUpError is a request retried until the retry budget ran out (429,
// 5xx, cut or stalled connections).
type GaveUpError struct {
	// What was asked for, URL from where; Attempts made over Elapsed; Last
	// the last failure.
	What, URL string
	Attempts  int
	Elapsed   time.Duration
	Last      error
}

func (e *GaveUpError) Error() string {
	return fmt.Sprintf("gave up on %s after %d attempts over %s: %v; the server is down, overloaded or unreachable: try again later (the download resumes where it stopped)",
		e.What, e.Attempts, e.Elapsed.Round(time.Second), e.Last)
}

func (e *GaveUpError) Unwrap() error { return e.Last }

// Mirror settings: what points each source at a mirror, for a machine
// that cannot reach the source (an air-gapped cluster).
const (
	mirrorHub     = "HF_ENDPOINT (the Hugging Face hub)"
	mirrorStorage = "--storage-url (MLCommons' storage)"
	mirrorPyPI    = "--pypi-url (PyPI)"
)

// mirrorSetting is the setting that points rq's source at a mirror.
func (rq request) mirrorSetting() string {
	switch {
	case rq.pypi != nil:
		return mirrorPyPI
	case rq.r2 != nil:
		return mirrorStorage
	}
	return mirrorHub
}

// noSuchHost reports whether err is a DNS lookup that found no such host:
// not a passing failure (a retry would find none again) but a machine
// without a name for the source, as air-gapped clusters are.
func noSuchHost(err error) bool {
	var de *net.DNSError
	return errors.As(err, &de) && de.IsNotFound
}

// noHostError is the error of a request whose host has no address here:
// which setting points its source at a mirror first, then the others.
func noHostError(what string, err error, setting string) error {
	others := []string{}
	for _, s := range []string{mirrorHub, mirrorStorage, mirrorPyPI} {
		if s != setting {
			others = append(others, s)
		}
	}
	return fmt.Errorf("%s: %w: this machine cannot resolve the source's host (no DNS for it, as on an air-gapped cluster), so retrying would not help: point it at a mirror with %s (other sources: %s), or download on a machine with access and copy the folder here (this command then verifies it without a request)",
		what, err, setting, strings.Join(others, ", "))
}

// statusError is an HTTP answer that was not what was asked for.
type statusError struct {
	Status  int
	Message string
}

func (e *statusError) Error() string {
	if e.Message != "" {
		return fmt.Sprintf("HTTP %d %s (%s)", e.Status, statusText(e.Status), e.Message)
	}
	return fmt.Sprintf("HTTP %d %s", e.Status, statusText(e.Status))
}

// isNoSpace reports whether err is a full disk (or quota).
func isNoSpace(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

// FormatBytes prints n in binary units ("1.5 GiB").
func FormatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 5; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
