"""The compiler front end: script files in, a :class:`~cardscript.runtime.definition.GameDefinition`
and its JSON IR out. The stages, in pipeline order:

1. :mod:`.loader` (sources): find a game's scripts (built-in name, folder or file), follow
   their ``uses`` and read them as text, each then parsed and built through :mod:`.cache`
   (which keeps built ASTs between runs); :mod:`.variants` finds the variant files and
   the other sets' card files a game is loaded with;
2. :mod:`.parse`: text -> Lark parse tree (syntax errors become diagnostics);
3. :mod:`.build` (AST): parse tree -> the immutable nodes of :mod:`.ast`, each with its span;
4. :mod:`.check`: collect every declaration into one symbol table and match call phrases
   against the effect patterns;
5. :mod:`.lower`: resolve every name and turn the AST into runtime effect objects ->
   the GameDefinition, which :func:`.pipeline.to_ir` serialises as the IR (schema:
   ``ir_schema.json``).

:mod:`.pipeline` drives them: :func:`~.pipeline.compile_game`, :func:`~.pipeline.check_paths`
and :func:`~.pipeline.to_ir` are the entry points.
"""
