#!/bin/sh
echo "filled $1"
