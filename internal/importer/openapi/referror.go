package openapi

import (
	"bytes"
	"fmt"
	"regexp"
)

// refError is a spec that parsed but whose $refs do not resolve: a spec
// with a typo, not "not an OpenAPI document".
type refError struct{ err error }

func (e refError) Error() string { return e.err.Error() }

func (e refError) Unwrap() error { return e.err }

// quotedRef finds the reference kin-openapi's message quotes.
var quotedRef = regexp.MustCompile(`"(#/[^"]*)"`)

// explain names the reference and the line of the spec it is written on,
// when the message quotes it and the spec holds it once.
func (e refError) explain(spec []byte) error {
	m := quotedRef.FindStringSubmatch(e.err.Error())
	if m == nil {
		return fmt.Errorf("a $ref does not resolve: %v", e.err)
	}
	ref := []byte(m[1])
	at := bytes.Index(spec, ref)
	if at < 0 || bytes.Count(spec, ref) != 1 {
		return fmt.Errorf("$ref %q does not resolve: %v", m[1], e.err)
	}
	line := bytes.Count(spec[:at], []byte("\n")) + 1
	return fmt.Errorf("line %d: $ref %q does not resolve (no such component in the spec): %v", line, m[1], e.err)
}
