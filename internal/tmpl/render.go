package tmpl

import (
	"encoding/binary"
	"math/rand/v2"
	"strconv"
	"time"
)

// Render appends the template's output for c to dst and returns it. It does
// not allocate beyond growing dst. A variable slot beyond len(c.Vars) renders
// as empty text; c may be nil only when the template is constant. A nil
// c.Rand uses the math/rand/v2 top-level source.
func (t *Template) Render(dst []byte, c *Context) []byte {
	if t == nil {
		return dst
	}
	return renderParts(dst, t.parts, c)
}

// renderParts appends the output of parts to dst.
func renderParts(dst []byte, parts []part, c *Context) []byte {
	for i := range parts {
		p := &parts[i]
		switch p.kind {
		case litPart:
			dst = append(dst, p.text...)
		case varPart:
			if p.slot >= 0 && p.slot < len(c.Vars) {
				dst = append(dst, c.Vars[p.slot]...)
			}
		case vuPart:
			dst = strconv.AppendInt(dst, c.VU, 10)
		case iterationPart:
			dst = strconv.AppendInt(dst, c.Iteration, 10)
		case scenarioPart:
			dst = append(dst, c.Scenario...)
		case randIntPart:
			dst = strconv.AppendInt(dst, randInt(c.Rand, p.lo, p.hi), 10)
		case randStringPart:
			dst = appendRandString(dst, c.Rand, int(p.lo))
		case uuidPart:
			dst = appendUUID(dst, c.Rand)
		case pickPart:
			dst = append(dst, p.choices[uint64n(c.Rand, uint64(len(p.choices)))]...)
		case timestampPart:
			dst = strconv.AppendInt(dst, time.Now().UnixMilli(), 10)
		case escapedPart:
			start := len(dst)
			dst = renderParts(dst, p.sub, c)
			dst = escapeTail(dst, start, p.esc)
		case urlPart:
			dst = renderURL(dst, p, c)
		}
	}
	return dst
}

// uint64n returns a uniform number in [0, n) from r, or from the top-level
// source when r is nil.
func uint64n(r *rand.Rand, n uint64) uint64 {
	if r == nil {
		return rand.Uint64N(n)
	}
	return r.Uint64N(n)
}

// random64 returns 64 random bits from r, or from the top-level source when r is nil.
func random64(r *rand.Rand) uint64 {
	if r == nil {
		return rand.Uint64()
	}
	return r.Uint64()
}

// randInt returns a uniform integer in [lo, hi], including the full int64 range.
func randInt(r *rand.Rand, lo, hi int64) int64 {
	span := uint64(hi-lo) + 1
	if span == 0 {
		return int64(random64(r))
	}
	return lo + int64(uint64n(r, span))
}

const (
	alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	// alnumPer64 characters are drawn from one random number below alnumPow.
	alnumPer64 = 10
	alnumPow   = 839299365868340224 // 62^10
)

// appendRandString appends n uniform characters of [A-Za-z0-9].
func appendRandString(dst []byte, r *rand.Rand, n int) []byte {
	for n > 0 {
		x := uint64n(r, alnumPow)
		for k := 0; k < alnumPer64 && n > 0; k++ {
			dst = append(dst, alnum[x%62])
			x /= 62
			n--
		}
	}
	return dst
}

const hexDigits = "0123456789abcdef"

// appendUUID appends a random version 4 UUID in its 36-character form.
func appendUUID(dst []byte, r *rand.Rand) []byte {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], random64(r))
	binary.LittleEndian.PutUint64(b[8:], random64(r))
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
	for i, x := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			dst = append(dst, '-')
		}
		dst = append(dst, hexDigits[x>>4], hexDigits[x&0x0f])
	}
	return dst
}
