package download

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/redact"
)

// Retry is how failed requests are retried: 429 and 5xx answers, refused,
// cut or stalled connections. Zero fields take the defaults.
type Retry struct {
	// Attempts is the number of tries of one request without progress
	// before giving up (default 8); a transfer that received bytes starts
	// its count over.
	Attempts int
	// BaseDelay is the first backoff (default 1 s), doubled per attempt up
	// to MaxDelay (default 1 min), with jitter; a Retry-After header
	// replaces it.
	BaseDelay, MaxDelay time.Duration
	// MaxRetryAfter is the longest Retry-After honoured (default 10 min);
	// a server asking for longer is a clear stop.
	MaxRetryAfter time.Duration
	// Stall is how long a transfer may receive nothing before its
	// connection is dropped and resumed (default 1 min); it also bounds the
	// wait for response headers.
	Stall time.Duration
}

func (r Retry) withDefaults() Retry {
	if r.Attempts <= 0 {
		r.Attempts = 8
	}
	if r.BaseDelay <= 0 {
		r.BaseDelay = time.Second
	}
	if r.MaxDelay <= 0 {
		r.MaxDelay = time.Minute
	}
	if r.MaxRetryAfter <= 0 {
		r.MaxRetryAfter = 10 * time.Minute
	}
	if r.Stall <= 0 {
		r.Stall = time.Minute
	}
	return r
}

// backoff is the wait before retry n (0-based): BaseDelay·2ⁿ capped at
// MaxDelay, half of it random so parallel transfers do not retry in step.
func (r Retry) backoff(n int) time.Duration {
	d := r.MaxDelay
	if n < 30 {
		d = min(r.BaseDelay<<n, r.MaxDelay)
	}
	return d/2 + rand.N(d/2+1)
}

// request says how to make and judge one request.
type request struct {
	// what describes it for messages.
	what string
	// hub marks a request to the Hugging Face hub: it carries the token,
	// and a 401/403 from the hub host is an AccessError naming hf.
	hub bool
	hf  *HF
	// r2 names the storage set, for a members-only AccessError.
	r2 *R2
	// pypi names the index's release: a 401/403 from a mirror is said to
	// be the mirror's, not a licence to accept.
	pypi   *PyPI
	method string // "" is GET
	header http.Header
	// capture, when set, receives the hub's headers on the way through
	// redirects.
	capture *hubHeaders
}

// hubHeaders are the hub's checks of a file, read from its resolve answer
// (the redirect or the file itself): X-Repo-Commit, X-Linked-Etag (the LFS
// sha256) and ETag (the git blob id of a small file).
type hubHeaders struct {
	repoCommit, linkedEtag, etag string
	hubHost                      string
	seen                         bool
}

// record keeps the first value of each header among the hub's answers (a
// renamed repository's relative redirect carries none of them).
func (h *hubHeaders) record(resp *http.Response) {
	if h == nil || resp == nil || resp.Request == nil || resp.Request.URL.Host != h.hubHost {
		return
	}
	h.seen = true
	first := func(dst *string, v string) {
		if *dst == "" {
			*dst = v
		}
	}
	first(&h.repoCommit, resp.Header.Get("X-Repo-Commit"))
	first(&h.linkedEtag, cleanEtag(resp.Header.Get("X-Linked-Etag")))
	first(&h.etag, cleanEtag(resp.Header.Get("ETag")))
}

func cleanEtag(e string) string {
	return strings.ToLower(strings.Trim(strings.TrimPrefix(strings.TrimSpace(e), "W/"), `"`))
}

type ctxKey struct{}

// reqInfo travels with a request through redirects (in its context).
type reqInfo struct {
	capture *hubHeaders
	// membersOnly is set when a redirect leads to Cloudflare Access.
	membersOnly bool
}

// errMembersOnly stops a redirect to Cloudflare Access's login.
var errMembersOnly = errors.New("redirected to Cloudflare Access")

// checkRedirect follows the hub's redirects (resolve → CDN, absolute or
// relative Location) as huggingface_hub does, recording the hub's headers
// first, and drops the token when the redirect leaves the host it was sent
// to (as requests does: the CDN gets a signed URL, not the user's token).
func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	info, _ := req.Context().Value(ctxKey{}).(*reqInfo)
	if info != nil {
		info.capture.record(req.Response)
	}
	if strings.HasSuffix(req.URL.Hostname(), ".cloudflareaccess.com") {
		if info != nil {
			info.membersOnly = true
		}
		return errMembersOnly
	}
	if req.URL.Host != via[0].URL.Host {
		req.Header.Del("Authorization")
	}
	return nil
}

// attemptError is one failed attempt: whether to retry it, and after how
// long the server asked to wait (0: the backoff decides).
type attemptError struct {
	err       error
	retriable bool
	after     time.Duration
}

func (e *attemptError) Error() string { return e.err.Error() }
func (e *attemptError) Unwrap() error { return e.err }

func retriable(err error) error { return &attemptError{err: err, retriable: true} }

// do makes one attempt of rq at u and returns a 2xx (or 206/416) response,
// or an error: an *attemptError for what may be retried, else final.
func (d *downloader) do(ctx context.Context, u string, rq request) (*http.Response, error) {
	method := rq.method
	if method == "" {
		method = http.MethodGet
	}
	info := &reqInfo{capture: rq.capture}
	req, err := http.NewRequestWithContext(context.WithValue(ctx, ctxKey{}, info), method, u, nil)
	if err != nil {
		return nil, err
	}
	for k, v := range rq.header {
		req.Header[k] = v
	}
	req.Header.Set("User-Agent", d.userAgent)
	if rq.hub && d.hf.Token != "" {
		req.Header.Set("Authorization", "Bearer "+d.hf.Token)
	}
	resp, err := d.client.Do(req)
	if info.membersOnly {
		if resp != nil {
			resp.Body.Close()
		}
		return nil, d.accessError(http.StatusFound, u, rq, "", true)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if noSuchHost(err) {
			return nil, noHostError(rq.what, err, rq.mirrorSetting())
		}
		return nil, retriable(fmt.Errorf("%s: %w", rq.what, err))
	}
	rq.capture.record(resp)
	if resp.StatusCode < 300 || resp.StatusCode == http.StatusRequestedRangeNotSatisfiable {
		return resp, nil
	}
	defer resp.Body.Close()
	msg := resp.Header.Get("X-Error-Message")
	if msg == "" {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		msg = shortBody(b)
	}
	st := &statusError{Status: resp.StatusCode, Message: msg}
	switch code := resp.StatusCode; {
	case code == http.StatusTooManyRequests || code >= 500:
		return nil, &attemptError{err: st, retriable: true, after: retryAfter(resp.Header.Get("Retry-After"), time.Now())}
	case (code == http.StatusUnauthorized || code == http.StatusForbidden) && rq.pypi != nil:
		return nil, fmt.Errorf("%s: %s answered %v: PyPI needs no login, so an index or proxy on the way refuses access: give --pypi-url an index that serves PyPI's JSON API without one",
			rq.what, redact.URL(u), st)
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		// The hub answers for itself; a 403 from the CDN a redirect led to
		// is an expired signed URL, which a new resolve renews.
		if rq.r2 == nil && resp.Request.URL.Host != hostOf(u) {
			return nil, retriable(fmt.Errorf("%s: the download host answered %v", rq.what, st))
		}
		e := d.accessError(code, u, rq, resp.Header.Get("X-Error-Message"), false)
		e.NotFound = resp.Header.Get("X-Error-Code") == "RepoNotFound"
		return nil, e
	case code == http.StatusNotFound:
		hint := ""
		if rq.hub && d.hf.Token == "" {
			hint = " (a private repository also answers 404 without a token: set HF_TOKEN)"
		}
		return nil, fmt.Errorf("%s: not found at %s (%w): the pin names a file, revision or set the source does not have%s", rq.what, u, st, hint)
	default:
		return nil, fmt.Errorf("%s: %s answered %v", rq.what, u, st)
	}
}

func (d *downloader) accessError(status int, u string, rq request, msg string, membersOnly bool) *AccessError {
	e := &AccessError{Status: status, URL: u, What: rq.what, ServerMessage: msg, MembersOnly: membersOnly}
	switch {
	case rq.hf != nil:
		e.Page = hfPageURL(rq.hf)
		if rq.hub && d.hf.Token != "" {
			e.TokenFrom = d.hf.TokenFrom
		}
	case rq.r2 != nil:
		e.Page = rq.r2.Base + "/index.html"
		e.MembersOnly = true
	}
	return e
}

func hostOf(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return p.Host
}

// shortBody is the start of an error body, on one line, for messages.
func shortBody(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// retryAfter reads a Retry-After header: delay-seconds or an HTTP date
// (RFC 9110 §10.2.3); 0 when absent or unreadable.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s < 0 || s > 1<<31 {
			return 0
		}
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

func statusText(code int) string {
	if t := http.StatusText(code); t != "" {
		return t
	}
	return "status"
}

// retrying runs try until it succeeds, fails for good, or has failed
// Attempts times in a row without progress; between tries it waits the
// backoff or what the server asked. progressed reports that the last try
// moved the transfer on (a resumable cut), which starts the count over.
func (d *downloader) retrying(ctx context.Context, what, u string, try func() (progressed bool, err error)) error {
	start := time.Now()
	fails, total := 0, 0
	for {
		progressed, err := try()
		total++
		if err == nil {
			return nil
		}
		var ae *attemptError
		if !errors.As(err, &ae) || !ae.retriable {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if progressed {
			fails = 0
		}
		fails++
		if fails >= d.retry.Attempts {
			return &GaveUpError{What: what, URL: u, Attempts: total, Elapsed: time.Since(start), Last: ae.err}
		}
		wait := d.retry.backoff(fails - 1)
		if ae.after > 0 {
			if ae.after > d.retry.MaxRetryAfter {
				return fmt.Errorf("%s: the server asks to wait %s before retrying (Retry-After), longer than %s: try again after %s (the download resumes where it stopped): %w",
					what, ae.after.Round(time.Second), d.retry.MaxRetryAfter, time.Now().Add(ae.after).Format(time.RFC1123), ae.err)
			}
			wait = ae.after
		}
		if d.onRetry != nil {
			d.onRetry(what, ae.err, wait)
		}
		if err := d.sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// get fetches u with retries and returns its successful response, for the
// small requests (file lists, metadata, sizes).
func (d *downloader) get(ctx context.Context, u string, rq request) (*http.Response, error) {
	var resp *http.Response
	err := d.retrying(ctx, rq.what, u, func() (bool, error) {
		r, err := d.do(ctx, u, rq)
		if err != nil {
			return false, err
		}
		if r.StatusCode >= 300 {
			r.Body.Close()
			return false, fmt.Errorf("%s: %s answered HTTP %d", rq.what, u, r.StatusCode)
		}
		resp = r
		return false, nil
	})
	return resp, err
}

// sleepCtx waits d or until ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// newTransport is the default transport with the stall bound on response
// headers and connection set-up.
func newTransport(stall time.Duration) *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ResponseHeaderTimeout = stall
	t.DialContext = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	t.TLSHandshakeTimeout = 30 * time.Second
	// Ask for the bytes as they are: a transparently gunzipped body would
	// not match the checksums or the Range offsets.
	t.DisableCompression = true
	return t
}
