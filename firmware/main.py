# Board entry point: everything lives in lib/ (tableboard, tablelink); see firmware/README.md.
from tableboard.boot import main

main()
