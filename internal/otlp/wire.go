package otlp

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// The protobuf wire format as the collector's decoder reads it, so that
// decodeProto takes and refuses what that decoder takes and refuses.

// Wire types.
const (
	wireVarint     = 0
	wireI64        = 1
	wireLen        = 2
	wireStartGroup = 3
	wireEndGroup   = 4
	wireI32        = 5
)

var (
	errIntOverflow = errors.New("proto: integer overflow")
	errBadLength   = errors.New("proto: negative length")
	errEndOfGroup  = errors.New("proto: unexpected end of group")
)

// field is one field of a protobuf message: a length-delimited value's
// bytes in val, a number's in x.
type field struct {
	num int32
	typ int8
	val []byte
	x   uint64
}

// eachField calls f with every field of message b, in order; unknown
// groups are skipped whole.
func eachField(b []byte, f func(field) error) error {
	for pos := 0; pos < len(b); {
		num, typ, next, err := tag(b, pos)
		if err != nil {
			return err
		}
		fl := field{num: num, typ: typ}
		switch typ {
		case wireVarint:
			fl.x, next, err = varint(b, next)
		case wireI64:
			if next, err = skipN(b, next, 8); err == nil {
				fl.x = binary.LittleEndian.Uint64(b[next-8:])
			}
		case wireI32:
			if next, err = skipN(b, next, 4); err == nil {
				fl.x = uint64(binary.LittleEndian.Uint32(b[next-4:]))
			}
		case wireLen:
			var n uint64
			if n, next, err = varint(b, next); err == nil && int(n) < 0 {
				err = errBadLength
			}
			start := next
			if err == nil {
				next, err = skipN(b, next, int(n))
			}
			if err == nil {
				fl.val = b[start:next]
			}
		default:
			next, err = skipGroup(b, next, typ)
		}
		if err != nil {
			return err
		}
		if err := f(fl); err != nil {
			return err
		}
		pos = next
	}
	return nil
}

// tag reads a field's tag at pos.
func tag(b []byte, pos int) (int32, int8, int, error) {
	t, pos, err := varint(b, pos)
	if err != nil {
		return 0, 0, 0, err
	}
	num := int32(t >> 3)
	if num <= 0 {
		return 0, 0, 0, fmt.Errorf("proto: illegal field %d", num)
	}
	return num, int8(t & 7), pos, nil
}

// varint reads a varint at pos.
func varint(b []byte, pos int) (uint64, int, error) {
	var x uint64
	for shift := uint(0); ; shift += 7 {
		if shift >= 64 {
			return 0, 0, errIntOverflow
		}
		if pos >= len(b) {
			return 0, 0, io.ErrUnexpectedEOF
		}
		c := b[pos]
		pos++
		x |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return x, pos, nil
		}
	}
}

// skipGroup skips an unknown field of type typ whose tag ends at pos (a
// group, or a wire type the caller does not know), and returns where it
// ends. As in the collector's decoder, a group ends at its first field
// that is not a group mark.
func skipGroup(b []byte, pos int, typ int8) (int, error) {
	depth := 0
	for pos < len(b) {
		var err error
		switch typ {
		case wireVarint:
			_, pos, err = varint(b, pos)
			return pos, err
		case wireI64:
			return skipN(b, pos, 8)
		case wireI32:
			return skipN(b, pos, 4)
		case wireLen:
			var n uint64
			if n, pos, err = varint(b, pos); err != nil {
				return 0, err
			}
			if int(n) < 0 {
				return 0, errBadLength
			}
			return skipN(b, pos, int(n))
		case wireStartGroup:
			depth++
		case wireEndGroup:
			if depth == 0 {
				return 0, errEndOfGroup
			}
			depth--
		default:
			return 0, fmt.Errorf("proto: illegal wire type %d", typ)
		}
		if depth == 0 {
			return pos, nil
		}
		if _, typ, pos, err = tag(b, pos); err != nil {
			return 0, err
		}
	}
	return 0, io.ErrUnexpectedEOF
}

// skipN skips n bytes at pos.
func skipN(b []byte, pos, n int) (int, error) {
	if pos += n; pos < 0 || pos > len(b) {
		return 0, io.ErrUnexpectedEOF
	}
	return pos, nil
}
