package plan

import (
	"io"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// Encodings are the values of a data source's encoding: the ones
// spreadsheets export CSV in besides UTF-8 (Excel in Korea saves CP949).
var Encodings = []string{"latin1", "cp1252", "cp949", "euc-kr", "shift_jis", "utf-16"}

// decoders maps each of Encodings to its decoder to UTF-8.
var decoders = map[string]encoding.Encoding{
	"latin1":    charmap.ISO8859_1,
	"cp1252":    charmap.Windows1252,
	"cp949":     korean.EUCKR, // x/text's EUC-KR is Windows code page 949, which extends it
	"euc-kr":    korean.EUCKR,
	"shift_jis": japanese.ShiftJIS,
	"utf-16":    unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), // its byte order mark says which
}

// decoded reads r as UTF-8 from the named encoding; "" is UTF-8 itself.
func decoded(r io.Reader, name string) io.Reader {
	e, ok := decoders[name]
	if !ok {
		return r
	}
	return transform.NewReader(r, e.NewDecoder())
}
