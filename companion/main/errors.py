def register(app):
    pass
