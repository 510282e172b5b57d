package metrics

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
)

// HdrHistogram's V2 compressed encoding, implemented here for the one
// geometry this package uses so that a codec can reuse its zlib state: the
// library allocates a fresh ~800 KB compressor for every histogram it
// encodes. The bytes are the standard format (the binary form, not base64)
// and interoperate with every HdrHistogram implementation.
const (
	v2Cookie           = 0x1c849303 | 0x10
	v2CompressedCookie = 0x1c849304 | 0x10
	v2CookieMask       = ^0xf0
	v2HeaderSize       = 40

	// The bucket layout of 1 µs .. 60 s at 3 significant digits.
	subBucketHalfMag = 10 // 2048 sub-buckets give single-unit resolution up to 2×10³
	subBucketHalf    = 1 << subBucketHalfMag
	subBucketMask    = 2*subBucketHalf - 1
	bucketCount      = 16 // 2048 × 2^15 > 60 000 000
	countsLen        = (bucketCount + 1) * subBucketHalf
	maxLEB128Len     = 9
)

// MaxHistBinary is the most bytes one histogram can take in a snapshot's
// binary form: every bucket counted with a 9-byte count that zlib cannot
// shrink, its headers, zlib's stored-block overhead (5 bytes per 64 KiB)
// and the presence byte and length in front. A reader of snapshots from
// elsewhere bounds a second's size with it.
const MaxHistBinary = 1 + binary.MaxVarintLen64 + 8 + v2HeaderSize + countsLen*maxLEB128Len + 1024

// countsIndex returns the flat bucket index of a value in range.
func countsIndex(v int64) int {
	bucket := 64 - bits.LeadingZeros64(uint64(v)|subBucketMask) - (subBucketHalfMag + 1)
	sub := int(v >> bucket)
	return (bucket+1)<<subBucketHalfMag + sub - subBucketHalf
}

// bucketValue returns the lowest value of the bucket at a flat index.
func bucketValue(idx int) int64 {
	bucket := idx>>subBucketHalfMag - 1
	sub := idx&(subBucketHalf-1) + subBucketHalf
	if bucket < 0 {
		sub -= subBucketHalf
		bucket = 0
	}
	return int64(sub) << bucket
}

// histCodec encodes and decodes histograms, reusing its buffers and zlib
// state across calls; one codec serves one goroutine.
type histCodec struct {
	payload []byte
	zbuf    bytes.Buffer
	zw      *zlib.Writer
	zr      io.ReadCloser
	inner   []byte
}

// appendLEB128 appends HdrHistogram's zig-zag LEB128 form of v: seven bits
// per byte, except that a ninth byte carries a full eight.
func appendLEB128(b []byte, v int64) []byte {
	u := uint64(v<<1) ^ uint64(v>>63)
	for i := 0; i < maxLEB128Len-1; i++ {
		if u < 0x80 {
			return append(b, byte(u))
		}
		b = append(b, byte(u)|0x80)
		u >>= 7
	}
	return append(b, byte(u))
}

// readLEB128 reads one zig-zag LEB128 value; n is 0 for truncated input.
func readLEB128(b []byte) (v int64, n int) {
	var u uint64
	for i := 0; i < maxLEB128Len && i < len(b); i++ {
		c := b[i]
		if i == maxLEB128Len-1 {
			u |= uint64(c) << 56
			return int64(u>>1) ^ -int64(u&1), i + 1
		}
		u |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return int64(u>>1) ^ -int64(u&1), i + 1
		}
	}
	return 0, 0
}

// appendHist appends h in the V2 compressed encoding.
func (c *histCodec) appendHist(b []byte, h *Hist) ([]byte, error) {
	// Payload: bucket counts in index order up to the last non-empty one,
	// runs of two or more empty buckets written as a negative run length.
	p := c.payload[:0]
	next := 0
	if h != nil && h.p != nil {
		h.p.ForEachBucket(func(value, count int64) bool {
			idx := countsIndex(value)
			if gap := idx - next; gap == 1 {
				p = appendLEB128(p, 0)
			} else if gap > 1 {
				p = appendLEB128(p, -int64(gap))
			}
			p = appendLEB128(p, count)
			next = idx + 1
			return true
		})
	}
	if len(p) == 0 {
		p = appendLEB128(p, 0) // as the reference encoders write an empty histogram
	}
	c.payload = p

	var hdr [v2HeaderSize]byte
	binary.BigEndian.PutUint32(hdr[0:], v2Cookie)
	binary.BigEndian.PutUint32(hdr[4:], uint32(len(p)))
	// hdr[8:12] is the normalizing index offset, always 0.
	binary.BigEndian.PutUint32(hdr[12:], histDigits)
	binary.BigEndian.PutUint64(hdr[16:], histLowest)
	binary.BigEndian.PutUint64(hdr[24:], histHighest)
	binary.BigEndian.PutUint64(hdr[32:], math.Float64bits(1))

	c.zbuf.Reset()
	if c.zw == nil {
		// BestSpeed: the default level clears ~640 KB of match tables on
		// every Reset, once per histogram; payloads are a few hundred bytes
		// of run lengths, which the fast level compresses nearly as well.
		c.zw, _ = zlib.NewWriterLevel(&c.zbuf, zlib.BestSpeed) // a valid level: cannot fail
	} else {
		c.zw.Reset(&c.zbuf)
	}
	if _, err := c.zw.Write(hdr[:]); err != nil {
		return nil, err
	}
	if _, err := c.zw.Write(p); err != nil {
		return nil, err
	}
	if err := c.zw.Close(); err != nil {
		return nil, err
	}
	b = binary.BigEndian.AppendUint32(b, v2CompressedCookie)
	b = binary.BigEndian.AppendUint32(b, uint32(c.zbuf.Len()))
	return append(b, c.zbuf.Bytes()...), nil
}

// decode reads a V2 compressed histogram of this package's geometry.
func (c *histCodec) decode(raw []byte) (*Hist, error) {
	if len(raw) < 8 {
		return nil, fmt.Errorf("histogram of %d bytes is shorter than its 8-byte header", len(raw))
	}
	if cookie := int32(binary.BigEndian.Uint32(raw)); cookie&v2CookieMask != v2CompressedCookie&v2CookieMask {
		return nil, fmt.Errorf("histogram cookie %#x is not HdrHistogram's V2 compressed encoding", uint32(cookie))
	}
	if n := binary.BigEndian.Uint32(raw[4:]); uint64(n) != uint64(len(raw)-8) {
		return nil, fmt.Errorf("histogram declares %d compressed bytes but has %d", n, len(raw)-8)
	}
	src := bytes.NewReader(raw[8:])
	var err error
	if c.zr == nil {
		c.zr, err = zlib.NewReader(src)
	} else {
		err = c.zr.(zlib.Resetter).Reset(src, nil)
	}
	if err != nil {
		return nil, fmt.Errorf("histogram: %w", err)
	}
	var hdr [v2HeaderSize]byte
	if _, err := io.ReadFull(c.zr, hdr[:]); err != nil {
		return nil, fmt.Errorf("histogram header: %w", err)
	}
	if cookie := int32(binary.BigEndian.Uint32(hdr[0:])); cookie&v2CookieMask != v2Cookie&v2CookieMask {
		return nil, fmt.Errorf("histogram inner cookie %#x is not V2", uint32(cookie))
	}
	digits, lowest, highest := binary.BigEndian.Uint32(hdr[12:]), binary.BigEndian.Uint64(hdr[16:]), binary.BigEndian.Uint64(hdr[24:])
	if digits != histDigits || lowest != histLowest || highest != histHighest {
		return nil, fmt.Errorf("histogram geometry (%d..%d, %d digits) is not the expected (%d..%d, %d digits)",
			int64(lowest), int64(highest), int32(digits), histLowest, histHighest, histDigits)
	}
	n := binary.BigEndian.Uint32(hdr[4:])
	if n > countsLen*maxLEB128Len {
		return nil, fmt.Errorf("histogram payload of %d bytes exceeds the maximum %d", n, countsLen*maxLEB128Len)
	}
	if cap(c.inner) < int(n)+1 {
		c.inner = make([]byte, n+1)
	}
	// Read one byte more than declared: only EOF there proves the length
	// right and, from zlib, the checksum good.
	got, err := io.ReadFull(c.zr, c.inner[:n+1])
	switch {
	case got == int(n) && (err == io.ErrUnexpectedEOF || err == io.EOF):
	case err == nil || err == io.EOF || err == io.ErrUnexpectedEOF:
		return nil, fmt.Errorf("histogram payload is %d bytes or more, header says %d", got, n)
	default:
		return nil, fmt.Errorf("histogram payload: %w", err)
	}
	return parsePayload(c.inner[:n])
}

// parsePayload turns a V2 payload into a histogram.
func parsePayload(p []byte) (*Hist, error) {
	h := NewHist()
	idx := 0
	for off := 0; off < len(p); {
		v, n := readLEB128(p[off:])
		if n == 0 {
			return nil, errors.New("histogram payload: truncated count")
		}
		off += n
		if v < 0 {
			if v == math.MinInt64 || -v > int64(countsLen-idx) {
				return nil, fmt.Errorf("histogram payload: run of %d empty buckets at bucket %d overflows %d buckets", -v, idx, countsLen)
			}
			idx += int(-v)
			continue
		}
		if idx >= countsLen {
			return nil, fmt.Errorf("histogram payload: bucket %d beyond the last (%d)", idx, countsLen-1)
		}
		if v > 0 {
			if err := h.p.RecordValues(bucketValue(idx), v); err != nil {
				return nil, fmt.Errorf("histogram payload: bucket %d: %w", idx, err)
			}
		}
		idx++
	}
	return h, nil
}
