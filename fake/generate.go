package fake

import (
	"net/http"
	"time"

	"github.com/mlperf-go/mlperf-go/protocol"
)

// imagePromptTokens is what one image adds to a chat's estimated
// prompt_tokens; the fake has no vision tokenizer, so it is a flat guess.
const imagePromptTokens = 256

// serve answers requests of protocol p: the protocol reads the request and
// writes the answer (protocol.Serving); the fake decides what the answer
// is (reply), when its tokens are due (stream.go) and which faults it
// suffers (faults.go).
func (s *Server) serve(p protocol.Serving) http.HandlerFunc {
	tokenIDs := p.AnswersTokenIDs()
	return func(w http.ResponseWriter, r *http.Request) {
		arrived := arrival(r)
		var req protocol.Request
		if !s.decodeBody(w, r, func(b []byte) (err error) { req, err = p.ParseRequest(b); return err }) {
			return
		}
		ask := req.Ask()
		if !s.checkModel(w, ask.Model) {
			return
		}
		fault := s.pickFault(requestKind{stream: ask.Stream, tokenIDs: tokenIDs})
		if s.injectEarly(w, r, fault, ask.Stream) {
			return
		}
		rep := s.reply(ask, fault)
		var seqs []cacheSeq
		if s.cfg.PrefixCache {
			seqs = cacheSeqs(ask, rep)
		}
		g, ok := s.begin(r, arrived, rep, seqs)
		if !ok {
			return
		}
		rep.Cached = g.cached
		if s.cfg.OnRequest != nil {
			s.cfg.OnRequest(RequestInfo{Path: r.URL.Path, Session: r.Header.Get("X-Session-ID"), Ask: ask,
				Tokens: rep.Tokens, Finish: rep.Finish, PromptTokens: rep.PromptTokens, CachedTokens: g.cachedTokens,
				ReasoningTokens: min(rep.Reasoning, rep.Tokens)})
		}
		defer g.end()
		s.own.admit.RecordDuration(g.start.Sub(arrived))
		rep.Arrived, rep.Started = arrived, g.start
		n := rep.Tokens

		if !ask.Stream {
			if !g.waitAll(n) {
				return
			}
			bp := s.getBuf()
			defer s.putBuf(bp)
			b := req.AppendBody((*bp)[:0], rep)
			*bp = b
			if fault == FailCut {
				writeCut(w, b)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			if _, err := w.Write(b); err == nil && http.NewResponseController(w).Flush() == nil {
				s.own.e2e.RecordDuration(time.Since(arrived))
			}
			return
		}
		endless := fault == FailEndless
		events := func(b []byte, from, to int) []byte { return req.AppendEvents(b, rep, from, to, to == n && !endless) }
		tail := func(b []byte) []byte { return appendDone(req.AppendTail(b, rep), fault) }
		g.stream(w, n, fault, events, tail)
	}
}

// checkModel answers 404, as vLLM does, to a request naming a model other
// than the one served; false when it did.
func (s *Server) checkModel(w http.ResponseWriter, model string) bool {
	if model == "" || model == s.cfg.Model {
		return true
	}
	writeError(w, http.StatusNotFound, "The model `"+model+"` does not exist.", "NotFoundError", "model")
	return false
}

// reply decides the answer to ask under fault. A chat is answered with
// the text its last user message is told (Config.Answers) or the default
// answer, which ends of itself: it stops at the request's max tokens only
// when it is longer. Token prompts are answered with Config.OutputTokens
// tokens derived from each prompt (Tokens), which reach the max tokens,
// when that many are asked, as a length cap; a one-prompt request whose
// prompt the fake was told an answer for (Config.TokenAnswers) gets that
// answer, which ends of itself as a chat's does. A fault that fails the
// finish stops the answer after a token; one that never ends it has one
// at least.
func (s *Server) reply(ask *protocol.Ask, fault string) *protocol.Reply {
	st := &replyState{rep: protocol.Reply{
		Model:        s.cfg.Model,
		Finish:       protocol.FinishStop,
		StopToken:    StopTokenID,
		OmitTokenIDs: fault == FailNoTokenIDs,
		Incremental:  s.cfg.IncrementalStream,
		IDs:          (*requestIDs)(s),
	}}
	rep := &st.rep
	var ans *textAnswer
	var known []int32 // the told answer of a one-prompt token request
	n := s.cfg.OutputTokens
	if ask.Messages == nil {
		rep.Prompts = ask.Prompts
		if ask.TextPrompts != nil {
			rep.Prompts = make([][]int32, len(ask.TextPrompts))
			for i, t := range ask.TextPrompts {
				rep.Prompts[i] = textPromptIDs(t)
			}
		}
		if len(rep.Prompts) == 1 && len(s.tokenAns) > 0 {
			if known = s.tokenAns[PromptKey(rep.Prompts[0])]; known != nil {
				n = len(known)
			}
		}
	}
	switch {
	case ask.Messages != nil:
		ans = s.answerFor(ask.Messages)
		n = s.cfg.ReasoningTokens + ans.pieces()
		if m := ask.MaxTokens; m != protocol.NoLimit && m < n {
			n, rep.Finish = m, protocol.FinishLength
		}
	case known != nil:
		// A told answer ends of itself, as a chat's does.
		if m := ask.MaxTokens; m != protocol.NoLimit && m < n {
			n, rep.Finish = m, protocol.FinishLength
		}
	default:
		if m := ask.MaxTokens; m != protocol.NoLimit && n >= m {
			n, rep.Finish = m, protocol.FinishLength
		}
	}
	// ignore_eos runs the answer to its cap; min_tokens lengthens a short
	// one (a chat's text then repeats).
	switch m := ask.MaxTokens; {
	case ask.IgnoreEOS && m != protocol.NoLimit:
		n, rep.Finish = m, protocol.FinishLength
	case ask.MinTokens > n:
		n = ask.MinTokens
		if m != protocol.NoLimit && n >= m {
			n, rep.Finish = m, protocol.FinishLength
		}
	}
	if f := finishReason(fault); f != "" {
		n, rep.Finish = min(n, 1), f
	}
	if fault == FailFinishError {
		rep.FailMessage = "injected fault: internal error"
	}
	if fault == FailEndless {
		n = max(n, 1)
	}
	rep.Tokens = n
	rep.Reasoning = s.cfg.ReasoningTokens
	if ans != nil {
		st.text = textOutput{a: ans, n: n}
		st.one[0] = &st.text
		if think := s.cfg.ReasoningTokens; think > 0 {
			st.reasoned = reasonedOutput{think: think, reason: textOutput{a: reasoningAnswer, n: think},
				answer: textOutput{a: ans, n: max(n-think, 0)}}
			st.one[0] = &st.reasoned
		}
		rep.Outputs = st.one[:]
		for _, m := range ask.Messages {
			rep.PromptTokens += messageTokens(m)
			s.images.Add(uint64(m.Images))
		}
		return rep
	}
	outs := st.tok[:]
	rep.Outputs = st.one[:]
	if len(rep.Prompts) != 1 {
		outs, rep.Outputs = make([]tokenOutput, len(rep.Prompts)), make([]protocol.Output, len(rep.Prompts))
	}
	for i, p := range rep.Prompts {
		if known != nil {
			outs[i] = tokenOutput{prompt: p, told: known, toks: s.endTokens(cycleTokens(known, n))}
		} else {
			outs[i] = tokenOutput{prompt: p, toks: s.endTokens(Tokens(p, n))}
		}
		rep.Outputs[i] = &outs[i]
		rep.PromptTokens += len(p)
	}
	return rep
}

// endTokens ends toks with Config.EndTokens (their tail, if toks is the
// shorter) and returns it.
func (s *Server) endTokens(toks []int32) []int32 {
	end := s.cfg.EndTokens
	if k := len(end) - len(toks); k > 0 {
		end = end[k:]
	}
	copy(toks[len(toks)-len(end):], end)
	return toks
}

// replyState holds a Reply with the outputs of a one-answer request, so
// that the reply is one allocation.
type replyState struct {
	rep      protocol.Reply
	one      [1]protocol.Output
	text     textOutput
	reasoned reasonedOutput
	tok      [1]tokenOutput
}

// answerFor returns the answer to a conversation: the one keyed on the
// text of its last user message, else a letter for a multiple-choice
// question (choiceAnswer), else the default.
func (s *Server) answerFor(msgs []protocol.Message) *textAnswer {
	key := ""
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			key = msgs[i].Text
			break
		}
	}
	if a, ok := s.answers[key]; ok {
		return a
	}
	if a := choiceAnswer(key, s.cfg.Seed); a != nil {
		return a
	}
	return s.fallback
}

// textOutput is a chat's answer cut to n pieces; past n (a stream that
// never ends) the pieces repeat.
type textOutput struct {
	a *textAnswer
	n int
}

func (o *textOutput) AppendText(dst []byte, from, to int) []byte {
	c := min(o.n, o.a.pieces()) // the cycle: the answer, or past its end its whole text again
	if to <= c {
		return o.a.appendEscaped(dst, from, to)
	}
	for i := from; i < to && c > 0; i++ {
		dst = o.a.appendEscaped(dst, i%c, i%c+1)
	}
	return dst
}

func (o *textOutput) AppendIDs(dst []byte, _, _ int) []byte { return append(dst, "null"...) }

// tokenOutput is the answer to a token prompt. Its tokens are encoded as
// they are written; once some are written again (SGLang's cumulative
// stream events repeat the answer so far), they are encoded once
// (encodedTokens) and copied from then on. Past its length (a stream that
// never ends) it grows: Tokens(p, k) extends Tokens(p, n), or the told answer repeats.
type tokenOutput struct {
	prompt []int32
	told   []int32 // the answer the fake was told (TokenAnswer), if any
	toks   []int32
	enc    *encodedTokens // nil until tokens are written a second time
	// textTo and idsTo are how far text and IDs have been written.
	textTo, idsTo int
}

// prepare readies tokens [from, to) whose text or IDs (done) have been
// written up to *done; once they are encoded, only growing needs it.
func (o *tokenOutput) prepare(from, to int, done *int) {
	if to > len(o.toks) {
		if o.told != nil {
			o.toks = cycleTokens(o.told, 2*to)
		} else {
			o.toks = Tokens(o.prompt, 2*to)
		}
		if o.enc != nil {
			o.enc = encodeTokens(o.toks)
		}
	}
	if o.enc == nil && from < *done {
		o.enc = encodeTokens(o.toks)
	}
	*done = max(*done, to)
}

func (o *tokenOutput) AppendText(dst []byte, from, to int) []byte {
	if o.enc == nil || to > len(o.toks) {
		o.prepare(from, to, &o.textTo)
	}
	if o.enc != nil {
		return o.enc.appendText(dst, from, to)
	}
	for _, t := range o.toks[from:to] {
		dst = appendTokenText(dst, t)
	}
	return dst
}

func (o *tokenOutput) AppendIDs(dst []byte, from, to int) []byte {
	if o.enc == nil || to > len(o.toks) {
		o.prepare(from, to, &o.idsTo)
	}
	if o.enc != nil {
		return o.enc.appendIDs(dst, from, to)
	}
	return protocol.AppendTokenIDs(dst, o.toks[from:to])
}

// requestIDs makes the server's request IDs (protocol.IDMaker).
type requestIDs Server

func (r *requestIDs) AppendID(dst []byte) []byte { return appendHexID(dst, (*Server)(r).nextID()) }

// appendDone appends the "data: [DONE]" that ends a stream, except under
// FailNoDone.
func appendDone(b []byte, fault string) []byte {
	if fault == FailNoDone {
		return b
	}
	return append(b, "data: [DONE]\n\n"...)
}

// ReasoningText is what a chat's reasoning (Config.ReasoningTokens) says,
// its pieces repeated to the length asked.
const ReasoningText = "Let me think about this step by step before I answer."

var reasoningAnswer = newTextAnswer(ReasoningText, false)

// reasonedOutput is a chat's answer after its reasoning
// (Config.ReasoningTokens): tokens [0, think) are the reasoning's, the
// rest the answer's.
type reasonedOutput struct {
	think          int
	reason, answer textOutput
}

func (o *reasonedOutput) AppendText(dst []byte, from, to int) []byte {
	if from < o.think {
		dst = o.reason.AppendText(dst, from, min(to, o.think))
	}
	if to > o.think {
		dst = o.answer.AppendText(dst, max(from, o.think)-o.think, to-o.think)
	}
	return dst
}

func (o *reasonedOutput) AppendIDs(dst []byte, _, _ int) []byte { return append(dst, "null"...) }

// sentBack is the answer's text without the reasoning, as clients send a
// reasoning model's answer back.
func (o *reasonedOutput) sentBack(n int) string { return o.answer.sentBack(max(n-o.think, 0)) }
