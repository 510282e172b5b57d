// Package tmpl compiles and renders the {{ ... }} templates used in request
// paths, headers and bodies. Templates are compiled once at parse time with
// every name resolved to a slot, so rendering is a loop over parts that
// appends to a caller's buffer without allocating.
//
// A template is literal text with {{ expr }} parts; spaces inside the braces
// are optional. An expr is one of:
//
//	name                 a variable, resolved through Scope.Vars to a slot
//	vu                   the VU's number (Context.VU)
//	iteration            the VU's iteration number (Context.Iteration)
//	scenario             the scenario's name (Context.Scenario)
//	env.NAME             environment variable NAME, read at compile time
//	"text" or 'text'     a string literal; {{ "{{" }} writes literal braces
//	randInt(min, max)    a uniform integer in [min, max]
//	randString(n)        n random characters of [A-Za-z0-9]
//	uuid()               a random version 4 UUID
//	pick("a", "b", ...)  one of its arguments, uniformly
//	env("NAME")          environment variable NAME, read at compile time
//	env("NAME", "def")   the same, with a default when NAME is not set
//	timestamp()          Unix milliseconds at render time
//
// Function arguments are literals: quoted strings or integers. String
// literals understand the escapes \\ \" \' \n \r and \t.
//
// The names vu, iteration and scenario are reserved: a Scope variable with
// one of these names is shadowed by the built-in and cannot be referenced.
//
// An unterminated {{ is an error; a lone }} in literal text is literal.
// Compile errors are *Error values carrying the byte offset in the source.
package tmpl
