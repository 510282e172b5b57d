package har

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// MaxRecording is the most of a recording an import reads by default;
// entries past it are left out, and the import says so.
const MaxRecording = 512 << 20

// decoder reads a recording entry by entry, so that what the import leaves
// out (static assets, their bodies) is never held, and says where a fault
// is: the line and column, and the entry when it is inside one.
type decoder struct {
	src   io.Reader // the recording, read again to find a fault's line when it can be
	limit int64     // bytes read at most
	count *countingReader
	dec   *json.Decoder
	entry int // entries read so far
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// errCut ends reading at the limit: what was read whole is imported.
var errCut = errors.New("the recording is larger than an import reads")

// utf8BOM is the byte order mark some tools write before a recording.
const utf8BOM = "\xef\xbb\xbf"

// newDecoder reads at most limit bytes of r.
func newDecoder(r io.Reader, limit int64) *decoder {
	c := &countingReader{r: io.LimitReader(r, limit)}
	br := bufio.NewReaderSize(c, 64<<10)
	if b, err := br.Peek(len(utf8BOM)); err == nil && string(b) == utf8BOM {
		_, _ = br.Discard(len(utf8BOM)) // Windows tools write one; JSON has no place for it
	}
	return &decoder{src: r, limit: limit, count: c, dec: json.NewDecoder(br)}
}

// read walks the recording, calling each for every entry of log.entries
// in the file's order and keeping the creator.
func (d *decoder) read(creator *struct{ Name, Version string }, each func(*entry) error) error {
	if err := d.empty(); err != nil {
		return err
	}
	if err := d.open("", '{'); err != nil {
		return err
	}
	for d.dec.More() {
		key, err := d.key()
		if err != nil {
			return err
		}
		if key != "log" {
			if err := d.skip(); err != nil {
				return err
			}
			continue
		}
		if err := d.log(creator, each); err != nil {
			return err
		}
	}
	return nil // what follows the recording is not read
}

// log reads the log object: its creator and its entries.
func (d *decoder) log(creator *struct{ Name, Version string }, each func(*entry) error) error {
	if err := d.open("log", '{'); err != nil {
		return err
	}
	for d.dec.More() {
		key, err := d.key()
		if err != nil {
			return err
		}
		switch key {
		case "creator":
			err = d.fault(d.dec.Decode(creator), "log.")
		case "entries":
			err = d.entries(each)
		default:
			err = d.skip()
		}
		if err != nil {
			return err
		}
	}
	return d.close()
}

// entries reads log.entries, one entry at a time.
func (d *decoder) entries(each func(*entry) error) error {
	if err := d.open("log.entries", '['); err != nil {
		return err
	}
	for d.dec.More() {
		var raw json.RawMessage
		if err := d.dec.Decode(&raw); err != nil {
			return d.fault(err, "")
		}
		var e entry
		if err := json.Unmarshal(raw, &e); err != nil {
			var typ *json.UnmarshalTypeError
			if errors.As(err, &typ) {
				at := d.dec.InputOffset() - int64(len(raw)) + typ.Offset - 1 // Offset is just past the fault
				return fmt.Errorf("not a HAR file: entry %d (log.entries[%d]) at %s: %s is a JSON %s, want %s",
					d.entry+1, d.entry, d.lineCol(at), typ.Field, typ.Value, jsonKind(typ.Type.Kind().String()))
			}
			return d.fault(err, "")
		}
		d.entry++
		if err := each(&e); err != nil {
			return err
		}
	}
	return d.close()
}

// empty refuses a file with nothing but white space.
func (d *decoder) empty() error {
	if d.dec.More() {
		return nil
	}
	if _, err := d.dec.Token(); errors.Is(err, io.EOF) {
		return errors.New("not a HAR file (JSON with log.entries): the file is empty")
	}
	return nil
}

// open reads the opening delimiter of the value of field (the top level
// when ""), which must be delim.
func (d *decoder) open(field string, delim json.Delim) error {
	tok, err := d.dec.Token()
	if err != nil {
		return d.fault(err, "")
	}
	if tok == delim {
		return nil
	}
	want := map[json.Delim]string{'{': "an object", '[': "a list"}[delim]
	if field == "" {
		return fmt.Errorf("not a HAR file (JSON with log.entries): it is %s, want an object", tokenKind(tok))
	}
	return fmt.Errorf("not a HAR file: %s: %s is a JSON %s, want %s", d.lineCol(d.dec.InputOffset()-1), field, tokenKind(tok), want)
}

// close reads the closing delimiter of an object or a list.
func (d *decoder) close() error {
	_, err := d.dec.Token()
	return d.fault(err, "")
}

// key reads an object's next key.
func (d *decoder) key() (string, error) {
	tok, err := d.dec.Token()
	if err != nil {
		return "", d.fault(err, "")
	}
	key, _ := tok.(string)
	return key, nil
}

// skip reads past a value the import does not use, without holding it.
func (d *decoder) skip() error {
	depth := 0
	for {
		tok, err := d.dec.Token()
		if err != nil {
			return d.fault(err, "")
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

// fault says where err, from reading the recording, is; prefix is the
// field path of the value being decoded.
func (d *decoder) fault(err error, prefix string) error {
	if err == nil {
		return nil
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case d.count.n >= d.limit && (errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &syn)):
		return errCut
	case errors.As(err, &syn):
		return fmt.Errorf("not a HAR file: %s: not JSON: %v", d.lineCol(syn.Offset), syn)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("not a HAR file: the JSON ends early, at %s", d.lineCol(d.count.n))
	case errors.As(err, &typ):
		return fmt.Errorf("not a HAR file: %s: %s%s is a JSON %s, want %s", d.lineCol(d.dec.InputOffset()-1), prefix, typ.Field, typ.Value, jsonKind(typ.Type.Kind().String()))
	}
	return fmt.Errorf("not a HAR file (JSON with log.entries): %v", err)
}

// lineCol names the line and column (1-based) of byte offset off, reading
// the recording again from its start when it can (a file): the decoder
// keeps no more of it than the entry it reads.
func (d *decoder) lineCol(off int64) string {
	off = max(off, 0)
	rs, ok := d.src.(io.ReadSeeker)
	if !ok {
		return fmt.Sprintf("byte %d", off+1)
	}
	if _, err := rs.Seek(0, io.SeekStart); err != nil {
		return fmt.Sprintf("byte %d", off+1)
	}
	line, col := int64(1), int64(1)
	br := bufio.NewReader(io.LimitReader(rs, off))
	for {
		chunk, err := br.ReadSlice('\n')
		if bytes.HasSuffix(chunk, []byte("\n")) {
			line, col = line+1, 1
		} else {
			col += int64(len(chunk))
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			break
		}
	}
	return fmt.Sprintf("line %d, column %d", line, col)
}

// tokenKind names the JSON kind of a token.
func tokenKind(tok json.Token) string {
	switch tok.(type) {
	case string:
		return "string"
	case bool:
		return "bool"
	case nil:
		return "null"
	case json.Delim:
		if tok == json.Delim('[') {
			return "array"
		}
		return "object"
	}
	return "number"
}

// jsonKind names a Go kind as the JSON value it decodes from.
func jsonKind(k string) string {
	switch k {
	case "string":
		return "a string"
	case "slice", "array":
		return "a list"
	case "struct", "map":
		return "an object"
	case "bool":
		return "true or false"
	}
	return "a number"
}
