package fake

import (
	"hash/maphash"
	"sync"

	"github.com/mlperf-go/mlperf-go/protocol"
)

// The prefix cache (Config.PrefixCache): a chat's prompt is hashed
// message by message, each hash covering the messages before it, and the
// cache maps every such hash to the prompt tokens up to that message. A
// request's cached tokens are those of its longest prefix in the cache.
// Its answer is entered too, as the assistant message the next turn
// carries (the same role and text a client sends back), so a multi-turn
// conversation prefills only its new user message, as an engine with
// prefix caching does.

// prefixCacheEntries bounds the cache: when full it is emptied, as an
// engine evicts under memory pressure.
const prefixCacheEntries = 1 << 16

type prefixCache struct {
	mu   sync.Mutex
	m    map[uint64]int
	seed maphash.Seed
	once sync.Once
}

// messageTokens is the fake's estimate of one message's prompt tokens.
func messageTokens(m protocol.Message) int {
	return approxTextTokens(m.Text) + m.Images*imagePromptTokens
}

// prefixLookup returns how many of the request's prompt tokens the cache
// holds and enters its prefixes and its answer; 0 when the cache is off.
func (s *Server) prefixLookup(msgs []protocol.Message, rep *protocol.Reply) int {
	if !s.cfg.PrefixCache {
		return 0
	}
	c := &s.prefix
	c.once.Do(func() { c.seed = maphash.MakeSeed(); c.m = map[uint64]int{} })
	var h maphash.Hash
	h.SetSeed(c.seed)
	hashes := make([]uint64, len(msgs)+1)
	tokens := make([]int, len(msgs)+1)
	sum := 0
	for i, m := range msgs {
		h.WriteString(m.Role)
		h.WriteByte(0)
		h.WriteString(m.Text)
		h.WriteByte(0)
		writeUint(&h, uint64(m.Images))
		writeUint(&h, m.ImageHash)
		sum += messageTokens(m)
		hashes[i], tokens[i] = h.Sum64(), sum
	}
	// The answer as the next turn carries it.
	h.WriteString("assistant")
	h.WriteByte(0)
	answerBytes := 0
	if o, ok := rep.Outputs[0].(*textOutput); ok {
		answerBytes = o.writeText(&h, rep.Tokens)
	}
	h.WriteByte(0)
	writeUint(&h, 0)
	writeUint(&h, 0)
	// Counted as the next turn will count it: as the text of a message.
	hashes[len(msgs)], tokens[len(msgs)] = h.Sum64(), sum+(answerBytes+3)/4
	cached := 0
	c.mu.Lock()
	for i := len(msgs) - 1; i >= 0; i-- {
		if t, ok := c.m[hashes[i]]; ok {
			cached = t
			break
		}
	}
	if len(c.m)+len(hashes) > prefixCacheEntries {
		clear(c.m)
	}
	for i, hv := range hashes {
		c.m[hv] = tokens[i]
	}
	c.mu.Unlock()
	s.cached.Add(uint64(cached))
	return cached
}

func writeUint(h *maphash.Hash, v uint64) {
	var b [8]byte
	for i := range b {
		b[i] = byte(v >> (8 * i))
	}
	h.Write(b[:])
}

// writeText writes the text of the answer's first n pieces, unescaped,
// as a client reassembles it (the cycle of AppendText past its end), and
// returns its length in bytes.
func (o *textOutput) writeText(h *maphash.Hash, n int) int {
	a := o.a
	c := min(o.n, a.pieces())
	written := 0
	for c > 0 && n > 0 {
		k := min(n, c)
		h.WriteString(a.text[:a.ends[k-1]])
		written += a.ends[k-1]
		n -= k
	}
	return written
}
