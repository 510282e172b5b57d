package openapi

import (
	"encoding/json"
	"strconv"
	"strings"
)

// document is what the import reads of a spec, OpenAPI 3 and Swagger 2.0
// fields side by side: a Swagger 2.0 document is made OpenAPI 3 by
// fromSwagger2. Everything else a spec holds is skipped when it is read.
type document struct {
	OpenAPI    string                     `json:"openapi"`
	Info       *info                      `json:"info"`
	Servers    []*server                  `json:"servers"`
	Paths      map[string]*pathItem       `json:"paths"`
	Components *components                `json:"components"`
	Security   *[]map[string][]string     `json:"security"`
	Webhooks   map[string]json.RawMessage `json:"webhooks"`

	// Swagger 2.0
	Swagger             string                     `json:"swagger"`
	Host                string                     `json:"host"`
	BasePath            string                     `json:"basePath"`
	Schemes             []string                   `json:"schemes"`
	Consumes            []string                   `json:"consumes"`
	Definitions         map[string]*schema         `json:"definitions"`
	Parameters          map[string]*parameter      `json:"parameters"`
	SecurityDefinitions map[string]*securityScheme `json:"securityDefinitions"`
}

type info struct {
	Title   string `json:"title"`
	Version string `json:"version"`
}

type server struct {
	URL       string                     `json:"url"`
	Variables map[string]*serverVariable `json:"variables"`
}

type serverVariable struct {
	Default string `json:"default"`
}

type components struct {
	Schemas         map[string]*schema         `json:"schemas"`
	Parameters      map[string]*parameter      `json:"parameters"`
	RequestBodies   map[string]*requestBody    `json:"requestBodies"`
	Examples        map[string]*example        `json:"examples"`
	SecuritySchemes map[string]*securityScheme `json:"securitySchemes"`
}

type pathItem struct {
	Ref        string       `json:"$ref"`
	Parameters []*parameter `json:"parameters"`
	Get        *operation   `json:"get"`
	Put        *operation   `json:"put"`
	Post       *operation   `json:"post"`
	Delete     *operation   `json:"delete"`
	Options    *operation   `json:"options"`
	Head       *operation   `json:"head"`
	Patch      *operation   `json:"patch"`
	Trace      *operation   `json:"trace"`
}

// operations are the path item's operations by method (upper case).
func (p *pathItem) operations() map[string]*operation {
	out := map[string]*operation{}
	for m, o := range map[string]*operation{"GET": p.Get, "PUT": p.Put, "POST": p.Post, "DELETE": p.Delete,
		"OPTIONS": p.Options, "HEAD": p.Head, "PATCH": p.Patch, "TRACE": p.Trace} {
		if o != nil {
			out[m] = o
		}
	}
	return out
}

type operation struct {
	Summary     string                     `json:"summary"`
	Parameters  []*parameter               `json:"parameters"`
	RequestBody *requestBody               `json:"requestBody"`
	Responses   map[string]json.RawMessage `json:"responses"`
	Callbacks   map[string]json.RawMessage `json:"callbacks"`
	Security    *[]map[string][]string     `json:"security"`
	Consumes    []string                   `json:"consumes"` // Swagger 2.0
}

// parameter is an OpenAPI 3 parameter; a Swagger 2.0 one writes its
// schema's fields (type, format, enum...) in itself, read into v2.
type parameter struct {
	Ref      string              `json:"$ref"`
	Name     string              `json:"name"`
	In       string              `json:"in"`
	Required bool                `json:"required"`
	Example  any                 `json:"example"`
	Examples map[string]*example `json:"examples"`
	Schema   *schema             `json:"schema"`
	v2       *schema
}

// UnmarshalJSON reads the parameter, and its own fields as a schema too
// (a Swagger 2.0 parameter's type, format, items, enum, default...).
func (p *parameter) UnmarshalJSON(b []byte) error {
	type plain parameter
	if err := json.Unmarshal(b, (*plain)(p)); err != nil {
		return err
	}
	var s schema
	_ = json.Unmarshal(b, &s) // its required: true is not a schema's list: the rest is read all the same
	if len(s.Type) > 0 {
		s.Ref = ""
		p.v2 = &s
	}
	return nil
}

type requestBody struct {
	Ref      string                `json:"$ref"`
	Required bool                  `json:"required"`
	Content  map[string]*mediaType `json:"content"`
}

type mediaType struct {
	Example  any                 `json:"example"`
	Examples map[string]*example `json:"examples"`
	Schema   *schema             `json:"schema"`
}

type example struct {
	Ref   string `json:"$ref"`
	Value any    `json:"value"`
}

type securityScheme struct {
	Ref    string `json:"$ref"`
	Type   string `json:"type"`
	In     string `json:"in"`
	Name   string `json:"name"`
	Scheme string `json:"scheme"`
}

// schema is what the import reads of a schema to make up a value for it.
type schema struct {
	Ref        string             `json:"$ref"`
	Type       types              `json:"type"`
	Format     string             `json:"format"`
	Example    any                `json:"example"`
	Examples   json.RawMessage    `json:"examples"` // OpenAPI 3.1: a list of values
	Default    any                `json:"default"`
	Const      any                `json:"const"`
	Enum       []any              `json:"enum"`
	Properties map[string]*schema `json:"properties"`
	Required   []string           `json:"required"`
	AllOf      []*schema          `json:"allOf"`
	OneOf      []*schema          `json:"oneOf"`
	AnyOf      []*schema          `json:"anyOf"`
	Items      *schema            `json:"items"`
	ReadOnly   bool               `json:"readOnly"`
	Nullable   bool               `json:"nullable"`
	Minimum    *float64           `json:"minimum"`
	Maximum    *float64           `json:"maximum"`
	ExclMin    json.RawMessage    `json:"exclusiveMinimum"` // a flag (3.0) or the bound itself (3.1)
	ExclMax    json.RawMessage    `json:"exclusiveMaximum"`
	MinLength  *int               `json:"minLength"`
	MaxLength  *int               `json:"maxLength"`
	MinItems   *int               `json:"minItems"`
	Pattern    string             `json:"pattern"`
}

// firstExample is the first of an OpenAPI 3.1 schema's examples.
func (s *schema) firstExample() any {
	var list []any
	if len(s.Examples) == 0 || json.Unmarshal(s.Examples, &list) != nil || len(list) == 0 {
		return nil
	}
	return list[0]
}

// types is a schema's type: one name, or a list of them (OpenAPI 3.1).
type types []string

// UnmarshalJSON reads "string" and ["string", "null"] alike.
func (t *types) UnmarshalJSON(b []byte) error {
	if strings.HasPrefix(strings.TrimSpace(string(b)), "[") {
		return json.Unmarshal(b, (*[]string)(t))
	}
	var one string
	if err := json.Unmarshal(b, &one); err != nil {
		return err
	}
	*t = types{one}
	return nil
}

func (t types) includes(name string) bool {
	for _, n := range t {
		if n == name {
			return true
		}
	}
	return false
}

// is reports whether the type is name alone.
func (t types) is(name string) bool { return len(t) == 1 && t[0] == name }

// isOpenAPI31OrLater reports whether version is 3.1 or a later 3.x.
func isOpenAPI31OrLater(version string) bool {
	rest, ok := strings.CutPrefix(version, "3.")
	if !ok {
		return false
	}
	minor, _, _ := strings.Cut(rest, ".")
	n, err := strconv.Atoi(minor)
	return err == nil && n >= 1
}
