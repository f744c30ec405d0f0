#!/usr/bin/env python3
"""Golden vectors for openaichat's tools protocol, made by mlcommons/endpoints
itself (git ea3327530376): what its msgspec adapter and SSE accumulator read
from chat completions with tool calls, and what BFCLv4Scorer.get_scoring_outputs
then scores (the merged tool calls msgspec-encoded, else the text); and request
bodies its adapter encodes.

Run with CPython 3.12.1 and inference-endpoint installed from that commit
(msgspec 0.20.0), as score/bfcl/testdata/gen_golden.py describes:
    python3.12 gen_tools_golden.py | gzip -9 -n > tools.jsonl.gz
Lines: {"kind": "body"|"stream", "input": body text | [data payloads],
        "output": scored text | {"err": type}}
       {"kind": "request", "args": {...}, "body": encoded request}
"""
import json
import sys

import msgspec
from inference_endpoint.core.types import TextModelOutput, merge_tool_calls
from inference_endpoint.openai.accumulator import OpenAISSEAccumulator
from inference_endpoint.openai.openai_msgspec_adapter import OpenAIMsgspecAdapter as A
from inference_endpoint.openai.types import ChatCompletionRequest, ChatMessage

assert sys.version_info[:2] == (3, 12)
assert msgspec.__version__ == "0.20.0", msgspec.__version__


def scored(out: TextModelOutput) -> str:
    # BFCLv4Scorer.get_scoring_outputs for one COMPLETE event
    merged = merge_tool_calls(out.tool_calls)
    if merged:
        return msgspec.json.encode(list(merged)).decode()
    return str(out)


def body_case(text):
    try:
        r = A.decode_response(text.encode(), "q")
        return scored(r.response_output)
    except Exception as e:  # noqa: BLE001
        return {"err": type(e).__name__}


def stream_case(datas):
    try:
        acc = OpenAISSEAccumulator("q", stream_all_chunks=False)
        for d in datas:
            acc.add_chunk(A.decode_sse_message(d.encode()))
        return scored(acc.get_final_output().response_output)
    except Exception as e:  # noqa: BLE001
        return {"err": type(e).__name__}


def chunk(delta=None, finish=None, extra=None):
    c = {"id": "chatcmpl-x", "object": "chat.completion.chunk", "created": 1, "model": "m",
         "choices": [{"index": 0, "delta": delta if delta is not None else {}, "logprobs": None, "finish_reason": finish}]}
    if extra:
        c.update(extra)
    return json.dumps(c, ensure_ascii=False)


def tc(index=None, id=None, type=None, name=None, args=None, raw_fn=None):
    d = {}
    if index is not None:
        d["index"] = index
    if id is not None:
        d["id"] = id
    if type is not None:
        d["type"] = type
    if raw_fn is not None:
        d["function"] = raw_fn
    elif name is not None or args is not None:
        fn = {}
        if name is not None:
            fn["name"] = name
        if args is not None:
            fn["arguments"] = args
        d["function"] = fn
    return d


STREAMS = [
    # vLLM hermes: role chunk, header, argument pieces, finish
    [chunk({"role": "assistant", "content": ""}), chunk({"tool_calls": [tc(0, "chatcmpl-tool-1", "function", "get_weather")]}),
     chunk({"tool_calls": [tc(0, args='{"city": ')]}), chunk({"tool_calls": [tc(0, args='"Lon')]}),
     chunk({"tool_calls": [tc(0, args='don"}')]}), chunk({}, "tool_calls")],
    # two calls, interleaved indexes, second first
    [chunk({"tool_calls": [tc(1, "b", "function", "g", "")]}), chunk({"tool_calls": [tc(0, "a", "function", "f", '{"x": 1}')]}),
     chunk({"tool_calls": [tc(1, args='{"y": [1, 2.5, "é\\u00e9"]}')]}), chunk({}, "tool_calls")],
    # llama.cpp style: name and empty arguments first, id repeated
    [chunk({"role": "assistant", "content": None, "tool_calls": [tc(0, "call_X", "function", "math_factorial", "")]}),
     chunk({"tool_calls": [tc(0, "call_X", None, None, '{"number":')]}), chunk({"tool_calls": [tc(0, None, None, None, ' 5}')]}),
     chunk({}, "tool_calls", {"usage": {"prompt_tokens": 3, "completion_tokens": 9, "total_tokens": 12}})],
    # no index (defaults to 0), no type
    [chunk({"tool_calls": [{"function": {"name": "f", "arguments": "{}"}}]}), chunk({}, "stop")],
    # content then tool call: the call is scored
    [chunk({"content": "Sure, "}), chunk({"content": "calling."}), chunk({"tool_calls": [tc(0, "i", "function", "f", '{"a": "b"}')]}), chunk({}, "tool_calls")],
    # text only
    [chunk({"role": "assistant", "content": ""}), chunk({"content": "I cannot "}), chunk({"content": "help."}), chunk({}, "stop")],
    # reasoning then content
    [chunk({"reasoning_content": "think "}), chunk({"reasoning_content": "more. "}), chunk({"content": "Answer."}), chunk({}, "stop")],
    [chunk({"reasoning": "vllm-style "}), chunk({"content": "Answer."}), chunk({}, "stop")],
    [chunk({"reasoning_content": "", "reasoning": "second"}), chunk({"content": "x"}), chunk({}, "stop")],
    [chunk({"content": "a", "reasoning_content": "ignored when content is there"}), chunk({}, "stop")],
    # reasoning and a tool call
    [chunk({"reasoning_content": "let me call"}), chunk({"tool_calls": [tc(0, "i", "function", "f", "{}")]}), chunk({}, "tool_calls")],
    # name sent twice (replaced), falsy values ignored
    [chunk({"tool_calls": [tc(0, "", "", "first", "")]}), chunk({"tool_calls": [tc(0, "id2", "function", "second", '{"k": null}')]}), chunk({}, "tool_calls")],
    # function null / empty
    [chunk({"tool_calls": [tc(0, "i", "function", raw_fn=None)]}), chunk({"tool_calls": [{"index": 0, "function": None}]}), chunk({}, "stop")],
    # arguments not a string
    [chunk({"tool_calls": [tc(0, "i", "function", "f", None, raw_fn={"name": "f", "arguments": {"a": 1}})]}), chunk({}, "stop")],
    # escapes, control characters and unicode in arguments
    [chunk({"tool_calls": [tc(0, "i", "function", "f", '{"q": "line\\nbreak \\"quoted\\" \\\\ tab\\t \\u0001 😀"}')]}), chunk({}, "tool_calls")],
    # empty delta list, choices empty (usage chunk), no finish
    [chunk({"tool_calls": []}), json.dumps({"choices": [], "usage": {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}}), chunk({"content": "x"})],
    # three calls
    [chunk({"tool_calls": [tc(i, f"id{i}", "function", f"f{i}", json.dumps({"i": i}))]}) for i in range(3)] + [chunk({}, "tool_calls")],
    # numbers in ids
    [chunk({"tool_calls": [tc(0, 17, "function", "f", "{}")]}), chunk({}, "tool_calls")],
]

BODIES = [
    {"id": "c", "object": "chat.completion", "created": 1, "model": "m", "choices": [{"index": 0, "message": {"role": "assistant", "content": None,
     "tool_calls": [{"id": "chatcmpl-tool-abc", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Boston\"}"}}]},
     "finish_reason": "tool_calls"}], "usage": {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}},
    {"id": "c", "choices": [{"index": 0, "message": {"role": "assistant", "content": "text only", "tool_calls": []}, "finish_reason": "stop"}]},
    {"id": "c", "choices": [{"index": 0, "message": {"role": "assistant", "content": "text", "tool_calls": None}, "finish_reason": "stop"}]},
    {"id": "c", "choices": [{"index": 0, "message": {"role": "assistant", "content": "visible", "reasoning_content": "hidden "}, "finish_reason": "stop"}]},
    {"id": "c", "choices": [{"index": 0, "message": {"role": "assistant", "content": "visible", "reasoning": "vllm "}, "finish_reason": "stop"}]},
    {"id": "c", "choices": [{"index": 0, "message": {"role": "assistant", "content": None}, "finish_reason": "stop"}]},
    {"id": "c", "choices": [{"index": 0, "message": {"role": "assistant", "content": "x", "tool_calls": [
        {"id": "1", "type": "function", "function": {"name": "a", "arguments": "{}"}, "index": 0, "extra": [1.0, 2, -0, 1e20, 0.00001, 1.5e-7, True, None]},
        {"function": {"arguments": "{\"b\": 2}", "name": "b"}, "type": "function", "id": "2"}]}, "finish_reason": "tool_calls"}]},
    {"id": "c", "choices": [{"index": 0, "message": {"role": "assistant", "tool_calls": [{"id": "x", "type": "function", "function": {"name": "é", "arguments": "{\"s\": \"\\u00e9</script>&\"}"}}]}}]},
    {"id": "c", "choices": []},
    {"id": "c", "choices": [{"index": 0, "message": {"content": "no role"}}]},
]


def requests():
    tools = [{"type": "function", "function": {"name": "f", "description": "d <b>&amp;</b> \u00e9 \"q\" \\ \n\t\x01\x7f",
              "parameters": {"type": "object", "properties": {"x": {"type": "number", "default": 0.5, "minimum": 0, "maximum": 1e20},
                                                               "y": {"type": "integer", "enum": [1, 2, 3]}}, "required": ["x"]}}}]
    cases = [
        dict(model="Qwen3.6-27B-Q4_K_M", messages=[ChatMessage(role="user", content="Hi \u00e9 <x> & \"q\"\n")], temperature=0.0,
             max_completion_tokens=1024, stream=True, seed=42, tools=tools, tool_choice="auto"),
        dict(model="m", messages=[ChatMessage(role="system", content="sys"), ChatMessage(role="user", content="")], temperature=0.7,
             top_p=0.95, top_k=20, repetition_penalty=1.05, presence_penalty=1.5, frequency_penalty=-0.5, seed=0,
             max_completion_tokens=1, chat_template_kwargs={"enable_thinking": False, "x": [1, 2.0, "é"]}, tools=tools, tool_choice="auto"),
        dict(model="m", messages=[ChatMessage(role="user", content="x")], temperature=1e-7, tools=[]),
        dict(model="m", messages=[ChatMessage(role="user", content="x")], temperature=123456789012345678.0, tool_choice="none"),
    ]
    out = []
    for c in cases:
        body = A.encode_request(ChatCompletionRequest(**c)).decode()
        args = {k: v for k, v in c.items() if k != "messages"}
        args["messages"] = [{"role": m.role, "content": m.content} for m in c["messages"]]
        out.append({"kind": "request", "args": args, "body": body})
    return out


def main():
    rows = []
    for s in STREAMS:
        rows.append({"kind": "stream", "input": s, "output": stream_case(s)})
    for b in BODIES:
        text = json.dumps(b, ensure_ascii=False)
        rows.append({"kind": "body", "input": text, "output": body_case(text)})
    rows += requests()
    for r in rows:
        print(json.dumps(r, ensure_ascii=False))


main()
