package fake

import (
	"container/list"
	"hash/maphash"
	"sync"
	"time"

	"github.com/mlperf-go/mlperf-go/protocol"
)

// The prefix cache (Config.PrefixCache) works as vLLM's automatic prefix
// caching does, on the fake's own tokens: a token prompt's IDs, a text
// prompt's pseudo tokens (textPromptIDs), a chat's messages one after
// another (chatTokens). A prompt is cut into blocks of
// Config.PrefixBlockTokens, the hash of each block covering the blocks
// before it. A request's cached tokens are its leading blocks found in the
// cache, at most its length less one (the engine computes the last prompt
// token to sample from: vLLM caps a hit at num_tokens - 1). The full
// blocks of the prompt followed by its answer then enter the cache, as the
// engine holds the sequence: those within the prompt ready when its
// prefill ends (a request that arrives before is not served from them, as
// an engine caches blocks once it has computed them), those holding
// answer tokens when the answer ends. The answer is a token prompt's
// output tokens, or a chat's answer as the assistant message the next
// turn carries (the text a client sends back, its reasoning left out).
// The least recently used blocks go first when the cache is full. Every prompt token is a query and every cached one a hit,
// which /metrics reports as vLLM and SGLang do; with the cache off, every
// query misses.

// DefaultPrefixBlockTokens is Config.PrefixBlockTokens when zero: vLLM's
// default block size.
const DefaultPrefixBlockTokens = 16

// prefixCacheBlocks bounds the cache: about a million tokens at the
// default block size, the KV cache of a small engine.
const prefixCacheBlocks = 1 << 16

// imageTokenMix tells an image's pseudo tokens apart from text's.
const imageTokenMix = 0x1a6e_5eed

type prefixCache struct {
	mu       sync.Mutex
	seed     maphash.Seed
	block    int
	capacity int                      // in blocks
	blocks   map[uint64]*list.Element // of *cachedBlock
	lru      list.List                // most recently used first
}

type cachedBlock struct {
	hash  uint64
	ready time.Time // when its KV is computed: a lookup before misses it
}

func newPrefixCache(block int) *prefixCache {
	return &prefixCache{seed: maphash.MakeSeed(), block: block, capacity: prefixCacheBlocks, blocks: map[uint64]*list.Element{}}
}

// cacheSeq is one prompt of a request and the answer that follows it, in
// the fake's tokens.
type cacheSeq struct {
	prompt, answer []int32
}

// hashes appends the chain hashes of toks' full blocks: each covers its
// block and, through the one before, every block before it.
func (c *prefixCache) hashes(dst []uint64, toks []int32) []uint64 {
	var h maphash.Hash
	var prev uint64
	var b [4]byte
	for i := 0; i+c.block <= len(toks); i += c.block {
		h.SetSeed(c.seed)
		writeUint(&h, prev)
		for _, t := range toks[i : i+c.block] {
			b[0], b[1], b[2], b[3] = byte(t), byte(t>>8), byte(t>>16), byte(t>>24)
			h.Write(b[:])
		}
		prev = h.Sum64()
		dst = append(dst, prev)
	}
	return dst
}

// admit looks the request's prompts up, then enters them and their
// answers: start is when the request got its slot, prefill how long its
// prefill takes given the tokens cached (its blocks are ready after it)
// and answer how long its answer takes after that. It returns the cached
// tokens of each prompt and the prefill time.
func (c *prefixCache) admit(seqs []cacheSeq, start time.Time, prefill func(cached int) time.Duration, answer time.Duration) ([]int, time.Duration) {
	// The blocks of each prompt followed by its answer, as the engine
	// holds the sequence: the first promptBlocks lie in the prompt alone.
	type chained struct {
		hashes       []uint64
		promptBlocks int
	}
	all := make([]chained, len(seqs))
	for i, s := range seqs {
		toks := append(append(make([]int32, 0, len(s.prompt)+len(s.answer)), s.prompt...), s.answer...)
		all[i].hashes = c.hashes(nil, toks)
		all[i].promptBlocks = len(s.prompt) / c.block
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	cached := make([]int, len(seqs))
	total := 0
	for i, s := range seqs {
		// Only blocks within the prompt less its last token can hit.
		n, usable := 0, all[i].hashes[:max(len(s.prompt)-1, 0)/c.block]
		for _, h := range usable {
			e, ok := c.blocks[h]
			if !ok || e.Value.(*cachedBlock).ready.After(start) {
				break
			}
			c.lru.MoveToFront(e)
			n += c.block
		}
		cached[i] = n
		total += n
	}
	pre := prefill(total)
	for _, a := range all {
		c.insert(a.hashes[:a.promptBlocks], start.Add(pre))
		c.insert(a.hashes[a.promptBlocks:], start.Add(pre+answer))
	}
	return cached, pre
}

// insert enters blocks ready at t (a block already in keeps the earlier
// of its two times), evicting the least recently used beyond the bound.
func (c *prefixCache) insert(hashes []uint64, t time.Time) {
	for _, h := range hashes {
		if e, ok := c.blocks[h]; ok {
			if b := e.Value.(*cachedBlock); t.Before(b.ready) {
				b.ready = t
			}
			c.lru.MoveToFront(e)
			continue
		}
		c.blocks[h] = c.lru.PushFront(&cachedBlock{hash: h, ready: t})
		for c.lru.Len() > c.capacity {
			old := c.lru.Back()
			c.lru.Remove(old)
			delete(c.blocks, old.Value.(*cachedBlock).hash)
		}
	}
}

func writeUint(h *maphash.Hash, v uint64) {
	var b [8]byte
	for i := range b {
		b[i] = byte(v >> (8 * i))
	}
	h.Write(b[:])
}

// messageTokens is the fake's estimate of one message's prompt tokens:
// the length of its chatTokens.
func messageTokens(m protocol.Message) int {
	return approxTextTokens(m.Text) + m.Images*imagePromptTokens
}

// chatTokens appends a chat message as the fake's tokens: its text four
// bytes a token, the first mixed with its role (so a user's and an
// assistant's same text differ), then imagePromptTokens for each image,
// drawn from the images' hash. Its length is messageTokens(m).
func chatTokens(dst []int32, m protocol.Message) []int32 {
	first := len(dst)
	for i := 0; i < len(m.Text); i += 4 {
		var v uint32
		for j := i; j < i+4 && j < len(m.Text); j++ {
			v = v<<8 | uint32(m.Text[j])
		}
		dst = append(dst, int32(v))
	}
	if len(dst) > first {
		dst[first] ^= int32(hashString(0, m.Role))
	}
	for k := range m.Images * imagePromptTokens {
		dst = append(dst, int32(splitmix64(m.ImageHash^imageTokenMix+uint64(k))))
	}
	return dst
}

// cacheSeqs are the request's prompts and answers in the fake's tokens.
// For a chat the answer is the assistant message the next turn carries:
// the answer's text as the client sends it back (sentBack), as a message
// of its own.
func cacheSeqs(ask *protocol.Ask, rep *protocol.Reply) []cacheSeq {
	if ask.Messages != nil {
		var prompt []int32
		for _, m := range ask.Messages {
			prompt = chatTokens(prompt, m)
		}
		var answer []int32
		if o, ok := rep.Outputs[0].(sentBacker); ok {
			answer = chatTokens(nil, protocol.Message{Role: "assistant", Text: o.sentBack(rep.Tokens)})
		}
		return []cacheSeq{{prompt: prompt, answer: answer}}
	}
	seqs := make([]cacheSeq, len(rep.Prompts))
	for i, p := range rep.Prompts {
		seqs[i].prompt = p
		if o, ok := rep.Outputs[i].(*tokenOutput); ok {
			seqs[i].answer = o.toks[:min(rep.Tokens, len(o.toks))]
		}
	}
	return seqs
}

// sentBacker is an output whose text a client sends back as the
// assistant's message.
type sentBacker interface {
	// sentBack is the text of the answer's first n tokens as the
	// client reassembles it.
	sentBack(n int) string
}

// sentBack is the text of the first n pieces, unescaped, as a client
// reassembles it (the cycle of AppendText past its end).
func (o *textOutput) sentBack(n int) string {
	a := o.a
	c := min(o.n, a.pieces())
	var b []byte
	for c > 0 && n > 0 {
		k := min(n, c)
		b = append(b, a.text[:a.ends[k-1]]...)
		n -= k
	}
	return string(b)
}
