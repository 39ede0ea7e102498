#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every C function a comment names with "name()" in lib/, include/, util/ and
tools/ exists: it is called, declared or defined in the code of those trees
(or is another library's, listed in tests/comment-refs.allow). A renamed or
removed function leaves no stale comment behind. Names are snake_case with an
underscore (Go's camelCase names of Velero's code are not C functions)."""
import os
import re
import sys
src=os.environ.get('VS_SRCDIR', sys.argv[1] if len(sys.argv) > 1 else '.')
files=[]
for d in ['lib','include','tools','util']:
    for root,_,fs in os.walk(os.path.join(src,d)):
        files+= [os.path.join(root,f) for f in fs if f.endswith(('.c','.h','.h.in'))]
code_names=set(); comment_refs=[]
for f in files:
    s=open(f,encoding='utf-8',errors='replace').read()
    # split comments and code
    for m in re.finditer(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|[^/"\']+|.',s,re.S):
        t=m.group(0)
        if t.startswith('/*') or t.startswith('//'):
            for r in re.finditer(r'(?<![\w.>:])([a-z][a-z0-9]*_[a-z0-9_]+)\(\)',t):
                line=s.count('\n',0,m.start()+r.start())+1
                comment_refs.append((f,line,r.group(1)))
        elif not t.startswith('"') and not t.startswith("'"):
            code_names.update(re.findall(r'\b([A-Za-z_]\w*)\s*\(',t))
            code_names.update(re.findall(r'#define\s+(\w+)',t))
ok=set(w for line in open(os.path.join(src,'tests/comment-refs.allow')) if not line.startswith('#') for w in line.split()) if os.path.exists(os.path.join(src,'tests/comment-refs.allow')) else set()
bad=[(f,l,n) for f,l,n in comment_refs if n not in code_names and n not in ok]
for f,l,n in bad: print('%s:%d: %s() is named in a comment but defined nowhere'%(os.path.relpath(f,src),l,n))
print(len(comment_refs),'references checked;',len(bad),'stale')
sys.exit(1 if bad else 0)
