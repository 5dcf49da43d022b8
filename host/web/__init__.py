"""The live page of a table (`--web`) and of a venue's scoreboard: a Starlette app served by
uvicorn in its own thread, fed from the table's feed; the page itself is plain HTML/JS/CSS."""
