#!/usr/bin/env python3
"""Example host (filled in below)."""
