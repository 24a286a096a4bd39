# DERETH_SANITIZE: ASan + UBSan for the whole build (the `debug` preset).
if(DERETH_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
