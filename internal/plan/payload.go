package plan

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
)

// Decode appends the bytes src writes in e to dst. Spaces, tabs and line
// breaks between the characters are skipped, so that a long payload can
// be written in groups or over several lines; RawBytes appends src as is.
func (e Encoding) Decode(dst, src []byte) ([]byte, error) {
	if e == RawBytes {
		return append(dst, src...), nil
	}
	packed := src
	if bytes.ContainsAny(src, " \t\n\r") { // copies only a payload written with spaces
		packed = make([]byte, 0, len(src))
		for _, b := range src {
			if b != ' ' && b != '\t' && b != '\n' && b != '\r' {
				packed = append(packed, b)
			}
		}
	}
	if e == Hex {
		out, err := hex.AppendDecode(dst, packed)
		var bad hex.InvalidByteError
		switch {
		case errors.As(err, &bad):
			return dst, fmt.Errorf("not hexadecimal: %q is not a hex digit (0-9, a-f)", rune(bad))
		case err != nil:
			return dst, fmt.Errorf("not hexadecimal: %d digits, an odd number (two digits a byte)", len(packed))
		}
		return out, nil
	}
	out, err := base64.StdEncoding.AppendDecode(dst, packed)
	var bad base64.CorruptInputError
	if errors.As(err, &bad) {
		return dst, fmt.Errorf("not base64 (standard alphabet, padded): bad or missing character at character %d (spaces not counted)", int64(bad)+1)
	}
	return out, err
}

// String names the encoding as a test file writes it.
func (e Encoding) String() string {
	switch e {
	case Hex:
		return "hex"
	case Base64:
		return "base64"
	}
	return "bytes"
}
