package grpc

import (
	"regexp"

	"github.com/loadlens/loadlens/internal/jsonpath"
)

func mustPath(s string) jsonpath.Path   { return jsonpath.MustParse(s) }
func mustRegex(s string) *regexp.Regexp { return regexp.MustCompile(s) }
func ptr(s string) *string              { return &s }
