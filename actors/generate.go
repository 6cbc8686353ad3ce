package actors

// messages.pb.go is committed so that building needs no protoc. After
// editing messages.proto run `go generate ./...`; it needs Debian's
// protobuf-compiler and
// `go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12`.

//go:generate protoc --go_out=. --go_opt=paths=source_relative messages.proto
