"""Sessions (``companion.CookieSessions``): a request without a session cookie builds no
signer; one with the cookie reads what an earlier answer stored."""

from __future__ import annotations


def test_no_signer_without_a_session_cookie_and_the_session_still_works(app, client):
    interface = app.session_interface
    built = []
    real = interface.get_signing_serializer

    def counted(flask_app):
        built.append(1)
        return real(flask_app)

    interface.get_signing_serializer = counted
    fresh = app.test_client()
    assert fresh.get("/offline").status_code == 200
    assert built == []  # no cookie: nothing to verify
    answer = client.post("/api/tables", json={"game": "shoot", "players": 3})
    code = answer.get_json()["code"]
    assert built  # the answer's cookie is signed
    with client.session_transaction() as session:
        assert session["tables"] == [code]
