package tmpl

import (
	"strconv"
	"strings"
)

// maxRandString caps randString so a typo cannot make every request huge.
const maxRandString = 1 << 16

// funcNames lists the functions for the unknown-function error.
const funcNames = "env, pick, randInt, randString, timestamp, uuid"

// arg is one literal argument of a function call.
type arg struct {
	off   int    // byte offset in the source
	text  string // the string's value, or the integer as written
	n     int64  // the integer's value
	isInt bool
}

// call parses the arguments of function name (at offset off) and builds its part.
func (c *compiler) call(name string, off, open int) (part, error) {
	args, err := c.args(open)
	if err != nil {
		return part{}, err
	}
	switch name {
	case "randInt":
		return randIntCall(args, off)
	case "randString":
		return randStringCall(args, off)
	case "uuid":
		return part{kind: uuidPart}, wantArgs("uuid()", args, 0, off)
	case "timestamp":
		return part{kind: timestampPart}, wantArgs("timestamp()", args, 0, off)
	case "pick":
		return pickCall(args, off)
	case "env":
		return c.envCall(args, off)
	}
	return part{}, errorf(off, "unknown function %s (known: %s)", name, funcNames)
}

// args parses "(arg, ...)" at c.pos, which holds the '('.
func (c *compiler) args(open int) ([]arg, error) {
	c.pos++
	c.skipSpace()
	var args []arg
	if !c.eof() && c.src[c.pos] == ')' {
		c.pos++
		return nil, nil
	}
	for {
		c.skipSpace()
		if c.eof() {
			return nil, c.unterminated(open)
		}
		a, err := c.arg(open)
		if err != nil {
			return nil, err
		}
		args = append(args, a)
		c.skipSpace()
		if c.eof() {
			return nil, c.unterminated(open)
		}
		switch c.src[c.pos] {
		case ',':
			c.pos++
		case ')':
			c.pos++
			return args, nil
		default:
			return nil, errorf(c.pos, "unexpected %s in arguments: expected , or )", c.describe())
		}
	}
}

// arg parses one quoted string or integer at c.pos.
func (c *compiler) arg(open int) (arg, error) {
	start := c.pos
	ch := c.src[c.pos]
	if ch == '"' || ch == '\'' {
		s, err := c.quoted(open)
		return arg{off: start, text: s}, err
	}
	if ch == '-' {
		c.pos++
	}
	for !c.eof() && isDigit(c.src[c.pos]) {
		c.pos++
	}
	text := c.src[start:c.pos]
	if text == "" || text == "-" {
		c.pos = start
		return arg{}, errorf(start, "unexpected %s: expected a quoted string or an integer argument", c.describe())
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return arg{}, errorf(start, "integer %s is out of range", text)
	}
	return arg{off: start, text: text, n: n, isInt: true}, nil
}

// wantArgs checks that sig (e.g. "randInt(min, max)") got n arguments.
func wantArgs(sig string, args []arg, n, off int) error {
	if len(args) == n {
		return nil
	}
	plural := "s"
	if n == 1 {
		plural = ""
	}
	return errorf(off, "%s takes %d argument%s, got %d", sig, n, plural, len(args))
}

// wantInt checks that argument i of function fn is an integer.
func wantInt(fn string, a arg, i int) error {
	if a.isInt {
		return nil
	}
	return errorf(a.off, "%s: argument %d must be an integer, got the string %q", fn, i+1, a.text)
}

// wantString checks that argument i of function fn is a quoted string.
func wantString(fn string, a arg, i int) error {
	if !a.isInt {
		return nil
	}
	return errorf(a.off, "%s: argument %d must be a quoted string, got the integer %s", fn, i+1, a.text)
}

func randIntCall(args []arg, off int) (part, error) {
	if err := wantArgs("randInt(min, max)", args, 2, off); err != nil {
		return part{}, err
	}
	for i, a := range args {
		if err := wantInt("randInt", a, i); err != nil {
			return part{}, err
		}
	}
	lo, hi := args[0].n, args[1].n
	if lo > hi {
		return part{}, errorf(args[0].off, "randInt: min %d is greater than max %d", lo, hi)
	}
	return part{kind: randIntPart, lo: lo, hi: hi}, nil
}

func randStringCall(args []arg, off int) (part, error) {
	if err := wantArgs("randString(n)", args, 1, off); err != nil {
		return part{}, err
	}
	if err := wantInt("randString", args[0], 0); err != nil {
		return part{}, err
	}
	n := args[0].n
	if n < 1 || n > maxRandString {
		return part{}, errorf(args[0].off, "randString: length %d is not between 1 and %d", n, maxRandString)
	}
	return part{kind: randStringPart, lo: n}, nil
}

func pickCall(args []arg, off int) (part, error) {
	if len(args) == 0 {
		return part{}, errorf(off, "pick(...) takes at least 1 argument, got 0")
	}
	if len(args) == 1 {
		return part{kind: litPart, text: args[0].text}, nil
	}
	choices := make([]string, len(args))
	for i, a := range args {
		choices[i] = a.text
	}
	return part{kind: pickPart, choices: choices}, nil
}

func (c *compiler) envCall(args []arg, off int) (part, error) {
	if len(args) != 1 && len(args) != 2 {
		return part{}, errorf(off, "env(name) or env(name, default) takes 1 or 2 arguments, got %d", len(args))
	}
	for i, a := range args {
		if err := wantString("env", a, i); err != nil {
			return part{}, err
		}
	}
	name := args[0].text
	if name == "" || strings.ContainsAny(name, "=\x00") {
		return part{}, errorf(args[0].off, "env: %q is not an environment variable name", name)
	}
	var def *string
	if len(args) == 2 {
		def = &args[1].text
	}
	return c.lookupEnv(name, def, args[0].off)
}
