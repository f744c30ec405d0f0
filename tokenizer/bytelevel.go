package tokenizer

// GPT-2's bytes_to_unicode table, as tokenizers' pre_tokenizers/byte_level.rs builds it: the
// printable bytes '!'..'~', 0xA1..0xAC and 0xAE..0xFF stand for themselves; the other 68 bytes
// (controls, space, 0x7F..0xA0, 0xAD) map, in byte order, to U+0100, U+0101, ... Byte-level BPE
// vocabularies are written in these characters ("Ġ" is the space byte 0x20).
var byteToChar, charToByteTable = func() ([256]rune, map[rune]byte) {
	var b2c [256]rune
	c2b := make(map[rune]byte, 256)
	n := rune(0)
	for b := 0; b < 256; b++ {
		if (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF) {
			b2c[b] = rune(b)
		} else {
			b2c[b] = 256 + n
			n++
		}
		c2b[b2c[b]] = byte(b)
	}
	return b2c, c2b
}()

// charToByte returns the byte a byte-level character stands for.
func charToByte(r rune) (byte, bool) {
	if r < 0x100 && r >= 0 {
		b := byte(r)
		if byteToChar[b] == r {
			return b, true
		}
		return 0, false
	}
	b, ok := charToByteTable[r]
	return b, ok
}

// byteLevelString spells bytes in byte-level characters, as the ByteLevel pre-tokenizer does.
func byteLevelString(b []byte) string {
	rs := make([]rune, len(b))
	for i, c := range b {
		rs[i] = byteToChar[c]
	}
	return string(rs)
}
