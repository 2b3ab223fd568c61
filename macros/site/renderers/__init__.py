"""One module per kind of page: each function takes the build and the URL of the page it renders
into and returns safe HTML drawn by a template in macros/site/templates. macros/site/render.py
lists the ones a page may call; macros/site/renderers/base.py holds what they share."""
