package main

const version = "v0.7.0"
