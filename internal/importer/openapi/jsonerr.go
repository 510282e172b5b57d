package openapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// explainJSON says which field of the spec has a value of the wrong kind
// (its path of keys, paths' and maps' own names left out).
func explainJSON(err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err
	}
	return fmt.Errorf("%s is %s, where the spec needs %s", te.Field, a(te.Value), kind(te.Type))
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
