package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/loadlens/loadlens/internal/units"
)

// maxNesting is the deepest a spec may nest. Real specs nest a few dozen
// levels; reading a spec's JSON takes time in the square of its depth
// (Swagger 2.0, 1,000 levels: 7 s).
const maxNesting = 64

// checkNesting refuses JSON text that nests deeper than maxNesting, before
// a reader slow on it sees it; lines says js is the spec's own text, whose
// lines the error may name.
func checkNesting(js []byte, lines bool) error {
	depth, past := jsonDepth(js)
	if depth <= maxNesting {
		return nil
	}
	at := ""
	if lines {
		line := bytes.Count(js[:past], []byte("\n")) + 1
		col := past - bytes.LastIndexByte(js[:past], '\n')
		at = fmt.Sprintf(" (deeper than %d from line %d, column %d)", maxNesting, line, col)
	}
	return fmt.Errorf("the spec nests %s levels deep%s; an import reads specs that nest at most %d levels",
		units.Count(int64(depth)), at, maxNesting)
}

// looksJSON reports whether the text is meant as JSON: it starts with { or [.
func looksJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n\ufeff")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// jsonDepth returns how deep JSON text nests, in one pass, and the offset
// of the bracket that first passed maxNesting (0 when none did).
func jsonDepth(js []byte) (int, int) {
	depth, deepest, past := 0, 0, 0
	inString, escaped := false, false
	for i, c := range js {
		switch {
		case inString && escaped:
			escaped = false
		case inString:
			escaped, inString = c == '\\', c != '"'
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
			if depth == maxNesting+1 && past == 0 {
				past = i
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest, past
}

// operationOrder returns where each operation ("/pets get") is written in
// the spec's JSON, read in one pass over its paths: the steps follow the
// spec's order, as the writer of the spec chose it.
func operationOrder(js []byte) map[string]int {
	order := map[string]int{}
	dec := json.NewDecoder(bytes.NewReader(js))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return order
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return order
		}
		if key != "paths" {
			var skip json.RawMessage // scanned, not split into tokens
			if dec.Decode(&skip) != nil {
				return order
			}
			continue
		}
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			return order
		}
		for dec.More() {
			path, err := dec.Token()
			if err != nil || pathOrder(dec, fmt.Sprint(path), order) != nil {
				return order
			}
		}
		return order
	}
	return order
}

// pathOrder records the order of a path item's keys (its methods).
func pathOrder(dec *json.Decoder, path string, order map[string]int) error {
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return fmt.Errorf("not an object")
	}
	for dec.More() {
		method, err := dec.Token()
		if err != nil {
			return err
		}
		order[path+" "+fmt.Sprint(method)] = len(order)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return err
		}
	}
	_, err = dec.Token()
	return err
}
