package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// explainJSON says where the spec's JSON (js, read from data) has a value
// of the wrong kind: the field, and the line when the spec is JSON.
func explainJSON(err error, js, data []byte) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err
	}
	at := ""
	if bytes.Equal(js, data) && te.Offset > 0 && te.Offset <= int64(len(js)) {
		at = fmt.Sprintf("line %d: ", bytes.Count(js[:te.Offset], []byte("\n"))+1)
	}
	return fmt.Errorf("%s%s is %s, where the spec needs %s", at, te.Field, a(te.Value), kind(te.Type))
}

// a is a JSON value's kind with its article.
func a(value string) string {
	switch value {
	case "object", "array":
		return "an " + value
	case "bool":
		return "true or false"
	}
	return "a " + value
}

// kind names what a Go type holds, in the spec's words.
func kind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.String:
		return "text"
	case reflect.Bool:
		return "true or false"
	case reflect.Float32, reflect.Float64, reflect.Int, reflect.Int64:
		return "a number"
	}
	return "a " + t.String()
}
