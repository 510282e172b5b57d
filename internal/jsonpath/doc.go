// Package jsonpath evaluates the small JSON path language of extractions and
// checks ($.a.b[0].c) over documents decoded by encoding/json.
//
// A path is an optional $ followed by steps:
//
//	.name      the member name of an object
//	['name']   the same, for any name ("name" quotes work too)
//	[index]    an element of an array; negative indexes count from the end
//
// Without the $, the path may start with a bare name: a.b[0] is $.a.b[0].
// A dotted name is one or more of the characters A-Z a-z 0-9 _ - or any
// non-ASCII character; other names need the bracket form. Inside brackets,
// quoted names understand the escapes \\ \' and \", and spaces are allowed
// around the name or index.
//
// Documents are what encoding/json decodes with UseNumber: map[string]any,
// []any, json.Number, string, bool and nil.
package jsonpath
