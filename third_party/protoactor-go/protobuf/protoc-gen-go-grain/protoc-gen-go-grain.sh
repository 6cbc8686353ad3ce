#!/usr/bin/env bash

exec go run github.com/asynkron/protoactor-go/protobuf/protoc-gen-go-grain
