package openapi

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// yamlStyleFloat is a plain scalar that reads as a float (YAML 1.2's core
// schema, as go.yaml.in/yaml resolved it: 1e3, .5, 1.).
var yamlStyleFloat = regexp.MustCompile(`^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$`)

// plainTags are the plain scalars whose tag their whole text says.
var plainTags = map[string]string{
	"true": "!!bool", "True": "!!bool", "TRUE": "!!bool",
	"false": "!!bool", "False": "!!bool", "FALSE": "!!bool",
	"": "!!null", "~": "!!null", "null": "!!null", "Null": "!!null", "NULL": "!!null",
	".nan": "!!float", ".NaN": "!!float", ".NAN": "!!float",
	".inf": "!!float", ".Inf": "!!float", ".INF": "!!float",
	"+.inf": "!!float", "+.Inf": "!!float", "+.INF": "!!float",
	"-.inf": "!!float", "-.Inf": "!!float", "-.INF": "!!float",
	"-0": "!!float", "-0.0": "!!float", "<<": "!!merge",
}

// resolveTag returns the tag of an untagged plain scalar, as the YAML
// reader before goccy/go-yaml's AST resolved it, so that the JSON written
// stays the same: 0x1F and 1_000 are integers, 2001-12-14 (a timestamp,
// written as text) and yes are strings, integers past int64 strings, past uint64 floats.
func resolveTag(s string) string {
	if tag, ok := plainTags[s]; ok {
		return tag
	}
	if s == "" {
		return "!!null"
	}
	switch c := s[0]; {
	case c == '.':
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return "!!float"
		}
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		plain := strings.ReplaceAll(s, "_", "")
		if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return "!!int"
		}
		if _, err := strconv.ParseUint(strings.TrimPrefix(plain, "+"), 0, 64); err == nil {
			return "!!int"
		}
		if yamlStyleFloat.MatchString(plain) {
			if _, err := strconv.ParseFloat(plain, 64); err == nil {
				return "!!float"
			}
		}
	}
	return "!!str"
}

// scalar writes a scalar as the JSON value its tag says.
func (w *jsonWriter) scalar(tag, v string) {
	switch tag {
	case "!!null":
		w.b.WriteString("null")
		return
	case "!!bool":
		if b, err := strconv.ParseBool(strings.ToLower(v)); err == nil {
			w.b.WriteString(strconv.FormatBool(b))
			return
		}
	case "!!int":
		if i, err := strconv.ParseInt(strings.ReplaceAll(v, "_", ""), 0, 64); err == nil {
			w.b.WriteString(strconv.FormatInt(i, 10))
			return
		}
	case "!!float":
		if f, err := strconv.ParseFloat(strings.ReplaceAll(v, "_", ""), 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			w.b.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
			return
		}
	}
	w.str(v)
}

// str writes s as a JSON string.
func (w *jsonWriter) str(s string) {
	b, _ := json.Marshal(s)
	w.b.Write(b)
}

// shortTag returns a tag as !!name when it is YAML's own (written
// tag:yaml.org,2002:name or !<tag:yaml.org,2002:name>), else as written.
func shortTag(tag string) string {
	t := strings.TrimSuffix(strings.TrimPrefix(tag, "!<"), ">")
	if name, ok := strings.CutPrefix(t, "tag:yaml.org,2002:"); ok {
		return "!!" + name
	}
	return tag
}
