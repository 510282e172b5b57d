package tmpl

// InJSON returns t, the template of a JSON text, with every variable it
// inserts escaped for where it stands: inside a JSON string escaped as
// the string's content (JSONString), elsewhere kept only when it is one
// whole JSON value (a number, an object: an echoed JSON body) and else
// inserted as a quoted JSON string (JSONValue). A variable's value (a
// mock's path parameter, a request's body) thus cannot close a string or
// an object and add keys. Generated values (numbers,
// UUIDs, random letters) and literal text are left as written; String is
// t's source.
func InJSON(t *Template) *Template {
	if t == nil {
		return nil
	}
	out := &Template{src: t.src, parts: make([]part, 0, len(t.parts))}
	var inString, escaped bool
	for _, p := range t.parts {
		switch p.kind {
		case litPart:
			inString, escaped = jsonStringState(p.text, inString, escaped)
		case varPart, scenarioPart:
			escaped = false // a backslash before it escapes its first character, whatever that is
			esc := JSONValue
			if inString {
				esc = JSONString
			}
			p = part{kind: escapedPart, esc: esc, sub: []part{p}}
		}
		out.parts = append(out.parts, p)
	}
	return out
}

// jsonStringState follows JSON text through s: whether it ends inside a
// string, and after a backslash there, given the state it starts in.
func jsonStringState(s string, inString, escaped bool) (bool, bool) {
	for i := 0; i < len(s); i++ {
		switch {
		case !inString:
			inString = s[i] == '"'
		case escaped:
			escaped = false
		case s[i] == '\\':
			escaped = true
		case s[i] == '"':
			inString = false
		}
	}
	return inString, escaped
}
