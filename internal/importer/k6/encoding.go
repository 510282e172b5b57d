package k6

import (
	"encoding/base64"
	"strings"

	"github.com/tdewolff/parse/v2/js"
)

// encodings are k6/encoding's base64 variants by the name a script gives them.
var encodings = map[string]*base64.Encoding{
	"std": base64.StdEncoding, "rawstd": base64.RawStdEncoding,
	"url": base64.URLEncoding, "rawurl": base64.RawURLEncoding,
}

// encodingCall evaluates k6/encoding's b64encode and b64decode(..., "s")
// of text written in the script, as k6 computes it: "Basic " +
// b64encode("user:pass") is a header the test sends as it is. handled is
// false for a call of anything else; a call on text known only at run
// time (a template: an env, a response) is noted at its line, as the
// test's templates have no base64.
func (s *script) encodingCall(n *js.CallExpr, f *flow) (v value, handled bool) {
	obj, name := calleeName(n.X)
	fn := ""
	switch {
	case obj != "" && obj == s.encodingMod:
		fn = name
	case obj == "":
		fn = s.encodingFns[name]
	}
	if fn != "b64encode" && fn != "b64decode" {
		return value{}, false
	}
	args := n.Args.List
	text, ok := s.literalArg(args, 0, f)
	variant, vok := "std", true
	if len(args) > 1 {
		variant, vok = s.literalArg(args, 1, f)
	}
	enc := encodings[variant]
	if !ok || !vok || enc == nil {
		s.note("%s: %s (base64 of a value known only at run time: the test's templates have none)", s.at(snippet(n)), snippet(n))
		return value{}, true
	}
	if fn == "b64encode" {
		return lit(enc.EncodeToString([]byte(text))), true
	}
	format := ""
	if len(args) > 2 {
		format, _ = s.literalArg(args, 2, f)
	}
	b, err := enc.DecodeString(text)
	if err != nil || format != "s" { // without "s", k6 returns an ArrayBuffer
		s.note("%s: %s (only the text b64decode(..., \"s\") gives of valid base64 is converted)", s.at(snippet(n)), snippet(n))
		return value{}, true
	}
	return lit(string(b)), true
}

// literalArg returns argument i of a call when it is text written in the
// script (no template part); a null or missing one is "std"'s default.
func (s *script) literalArg(args []js.Arg, i int, f *flow) (string, bool) {
	if i >= len(args) {
		return "", false
	}
	v := s.eval(args[i].Value, f)
	if v.kind == "null" && i > 0 {
		return "std", true
	}
	t, ok := v.asText()
	if !ok || strings.Contains(t, "{{") {
		return "", false
	}
	return t, true
}
