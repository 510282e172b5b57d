package har

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// decode reads the recording, and on failure says where: the line and
// column, and which entry of log.entries when the fault is inside one.
func decode(r io.Reader, a *archive) error {
	data, err := io.ReadAll(io.LimitReader(r, 512<<20))
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return errors.New("not a HAR file (JSON with log.entries): the file is empty")
	}
	err = json.NewDecoder(bytes.NewReader(data)).Decode(a) // as before: what follows the recording is not read
	if err == nil {
		return nil
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("not a HAR file: %s: not JSON: %v", lineCol(data, syn.Offset-1), syn)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("not a HAR file: the JSON ends early, at %s", lineCol(data, int64(len(data))))
	case errors.As(err, &typ):
		where, field := lineCol(data, typ.Offset-1), typ.Field // Offset is just past the fault
		if i := badEntry(data); i >= 0 {
			where = fmt.Sprintf("entry %d (log.entries[%d]) at %s", i+1, i, where)
			field = strings.TrimPrefix(field, "log.entries.")
		}
		return fmt.Errorf("not a HAR file: %s: %s is a JSON %s, want %s", where, field, typ.Value, jsonKind(typ.Type.Kind().String()))
	}
	return fmt.Errorf("not a HAR file (JSON with log.entries): %v", err)
}

// badEntry returns the index of the first entry that does not decode, or -1.
func badEntry(data []byte) int {
	var raw struct {
		Log struct {
			Entries []json.RawMessage `json:"entries"`
		} `json:"log"`
	}
	if json.Unmarshal(data, &raw) != nil {
		return -1
	}
	for i, m := range raw.Log.Entries {
		var e entry
		if json.Unmarshal(m, &e) != nil {
			return i
		}
	}
	return -1
}

// lineCol names the line and column (1-based) of byte offset off in data.
func lineCol(data []byte, off int64) string {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("line %d, column %d", line, col)
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
