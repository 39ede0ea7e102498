# SPDX-License-Identifier: Apache-2.0
# The data mover (issue 26; lib/datamover/, listed in lib/local.mk): the
# node-agent's decisions on DataUploads and DataDownloads, per release
# (tests/data/releases/dm-node-agent.txt), and their property test.
VS_CHECK_PROGS += tests/check_dm_node
tests_check_dm_node_SOURCES = tests/check_dm_node.c $(VS_TEST_COMMON)
