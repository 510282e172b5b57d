package plan

import "github.com/loadlens/loadlens/internal/yamldoc"

// Error is one problem in a test file: where it is, which field it concerns
// and what is wrong. The test parser reads YAML through yamldoc, whose
// errors these are.
type Error = yamldoc.Error

// Errors is every problem Parse found in a test file, sorted by position.
type Errors = yamldoc.Errors

// MaxFileSize is the most bytes a test file may have: yamldoc refuses a
// larger one before parsing it.
const MaxFileSize = yamldoc.MaxFileSize

// MaxKeys is the most keys one block mapping of a test file may have:
// yamldoc refuses more before parsing, as the parser's time grows with
// their square.
const MaxKeys = yamldoc.MaxKeys

// CheckLimits checks YAML text named file against a test file's limits
// (size, nesting, entries, keys in one mapping) before another parser
// reads it.
func CheckLimits(file string, src []byte) error { return yamldoc.Prescan(file, src) }
