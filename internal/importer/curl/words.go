package curl

import (
	"fmt"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// varMark brackets a shell variable's name in expanded words, so that
// "$TOKEN" can become {{ env("TOKEN", "") }} once the text is a template.
const varMark = "\x00"

var varPattern = regexp.MustCompile(varMark + `([A-Za-z_][A-Za-z0-9_]*)` + varMark)

// escapedVarPattern is varPattern once query-escaped.
var escapedVarPattern = regexp.MustCompile(`%00([A-Za-z_][A-Za-z0-9_]*)%00`)

// urlVarMark stands for varMark in a URL, where a control character would
// be escaped (%00) or refused: letters pass through parsing as they are.
const urlVarMark = "LLxSHVARx"

var urlVarPattern = regexp.MustCompile(urlVarMark + `([A-Za-z_][A-Za-z0-9_]*?)` + urlVarMark)

// commands splits text into the argument lists of its curl commands. Text
// copied as "cURL (cmd)" on Windows is read with cmd.exe's quoting, anything
// else as bash (which covers POSIX sh, and the $'...' strings Chrome writes).
func commands(text string) ([][]string, error) {
	if isCmd(text) {
		return cmdCommands(text), nil
	}
	cfg := &expand.Config{Env: expand.FuncEnviron(shellVar)}
	var out [][]string
	var walkErr error
	walk := func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 || walkErr != nil {
			return walkErr == nil
		}
		var args []string
		for _, w := range call.Args {
			// Fields, not Literal: it removes quotes as bash does ('it'\''s' is it's).
			fields, err := expand.Fields(cfg, w)
			if err != nil {
				walkErr = fmt.Errorf("cannot expand %q: %v (command substitution is not run)", wordText(text, w), err)
				return false
			}
			args = append(args, fields...)
		}
		if isCurl(args[0]) {
			out = append(out, args[1:])
		}
		return true
	}
	// One statement at a time, each let go once walked: the text may hold many.
	for st, err := range syntax.NewParser(syntax.Variant(syntax.LangBash)).StmtsSeq(strings.NewReader(text)) {
		if err != nil {
			return nil, fmt.Errorf("cannot read the command line as shell text: %v", err)
		}
		syntax.Walk(st, walk)
		if walkErr != nil || len(out) > maxCommands {
			break
		}
	}
	return out, walkErr
}

// shellVar is what the import expands a shell variable to: its name
// between varMarks, kept as one field; IFS is bash's default.
func shellVar(name string) string {
	if name == "IFS" {
		return " \t\n"
	}
	return varMark + name + varMark
}

// wordText is a word as written.
func wordText(text string, w *syntax.Word) string {
	start, end := int(w.Pos().Offset()), int(w.End().Offset())
	if start >= 0 && end <= len(text) && start <= end {
		return text[start:end]
	}
	return "?"
}

// isCurl reports whether a command's name is curl.
func isCurl(name string) bool {
	name = strings.ToLower(name[strings.LastIndexAny(name, `/\`)+1:])
	return name == "curl" || name == "curl.exe"
}

// isCmd reports whether text uses cmd.exe's quoting, as Chrome's and
// Firefox's "Copy as cURL (cmd)" write it: ^" quotes and lines ending in ^.
func isCmd(text string) bool {
	if strings.Contains(text, `^"`) {
		return true
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.HasSuffix(strings.TrimRight(line, "\r \t"), " ^") {
			return true
		}
	}
	return false
}

// cmdCommands reads text as cmd.exe lines: ^ escapes the next character
// (at a line's end it joins the next line, whose first character it
// escapes), then each line's arguments are split as Windows programs do.
func cmdCommands(text string) [][]string {
	var lines []string
	var cur strings.Builder
	quoted := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '^' && !quoted && i+1 < len(text):
			i++
			if text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			if text[i] == '\n' {
				if i+1 < len(text) { // the character after the joined line break is literal
					i++
					cur.WriteByte(text[i])
				}
				continue
			}
			cur.WriteByte(text[i])
		case c == '"':
			quoted = !quoted
			cur.WriteByte(c)
		case c == '\n' || c == '\r':
			quoted = false
			lines = append(lines, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	lines = append(lines, cur.String())
	var out [][]string
	for _, line := range lines {
		args := argv(line)
		if len(args) > 0 && isCurl(args[0]) {
			out = append(out, args[1:])
		}
	}
	return out
}

// argv splits a Windows command line as CommandLineToArgvW does:
// whitespace separates, "..." quotes, and backslashes escape a quote.
func argv(line string) []string {
	var args []string
	var cur strings.Builder
	inArg, quoted := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\':
			n := 0
			for i < len(line) && line[i] == '\\' {
				n++
				i++
			}
			if i < len(line) && line[i] == '"' {
				cur.WriteString(strings.Repeat(`\`, n/2))
				if n%2 == 1 {
					cur.WriteByte('"')
				} else {
					quoted = !quoted
				}
			} else {
				cur.WriteString(strings.Repeat(`\`, n))
				i--
			}
			inArg = true
		case c == '"':
			quoted = !quoted
			inArg = true
		case (c == ' ' || c == '\t') && !quoted:
			if inArg {
				args = append(args, cur.String())
				cur.Reset()
				inArg = false
			}
		default:
			cur.WriteByte(c)
			inArg = true
		}
	}
	if inArg {
		args = append(args, cur.String())
	}
	return args
}
